.class public Lsmalifix/MonitorLoop;
.super Ljava/lang/Object;
.source "MonitorLoop.smali"

.field static total:I

# A loop while a monitor is held, under the catch-all that releases it (javac's shape, by hand:
# the handler covers its own monitor-exit): the loop probes must stay under that catch-all, which
# the shared counter's sget/sput (they can throw) already enter with the monitor held.
.method public static sumLocked(Ljava/lang/Object;I)I
    .registers 5
    const/4 v0, 0
    monitor-enter p0
    :try_start
    const/4 v1, 0
    :loop
    if-ge v1, p1, :done
    add-int/2addr v0, v1
    sget v2, Lsmalifix/MonitorLoop;->total:I
    add-int/2addr v2, v1
    sput v2, Lsmalifix/MonitorLoop;->total:I
    add-int/lit8 v1, v1, 1
    goto :loop
    :done
    monitor-exit p0
    :try_end
    .catchall {:try_start .. :try_end} :handler
    return v0
    :handler
    move-exception v2
    :h_start
    monitor-exit p0
    :h_end
    .catchall {:h_start .. :h_end} :handler
    throw v2
.end method
