.class public Lsmalifix/MonitorLoop;
.super Ljava/lang/Object;
.source "MonitorLoop.smali"


# static fields
.field static total:I


# direct methods
.method public static sumLocked(Ljava/lang/Object;I)I
    .registers 9

    move-object v3, p0

    move v4, p1

    const/16 v6, 0x9

    invoke-static {v6}, Lorg/hyprof/runtime/Probe;->enter(I)V

    :try_start_0
    const/4 v0, 0x0

    monitor-enter v3
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_1

    :try_start_1
    const/4 v1, 0x0

    const/16 v5, 0xa

    invoke-static {v5}, Lorg/hyprof/runtime/Probe;->loopEnter(I)V

    :goto_0
    if-ge v1, v4, :cond_0

    add-int/2addr v0, v1

    sget v2, Lsmalifix/MonitorLoop;->total:I

    add-int/2addr v2, v1

    sput v2, Lsmalifix/MonitorLoop;->total:I

    add-int/lit8 v1, v1, 0x1

    const/16 v5, 0xa

    invoke-static {v5}, Lorg/hyprof/runtime/Probe;->loopIter(I)V

    goto :goto_0

    :goto_1
    monitor-exit v3
    :try_end_1
    .catchall {:try_start_1 .. :try_end_1} :catchall_0

    :try_start_2
    invoke-static {v6}, Lorg/hyprof/runtime/Probe;->exit(I)V

    return v0

    :catchall_0
    move-exception v2
    :try_end_2
    .catchall {:try_start_2 .. :try_end_2} :catchall_1

    :try_start_3
    monitor-exit v3
    :try_end_3
    .catchall {:try_start_3 .. :try_end_3} :catchall_0

    :try_start_4
    throw v2
    :try_end_4
    .catchall {:try_start_4 .. :try_end_4} :catchall_1

    :cond_0
    :try_start_5
    const/16 v5, 0xa

    invoke-static {v5}, Lorg/hyprof/runtime/Probe;->loopExit(I)V

    goto :goto_1
    :try_end_5
    .catchall {:try_start_5 .. :try_end_5} :catchall_0

    :catchall_1
    move-exception v5

    invoke-static {v6}, Lorg/hyprof/runtime/Probe;->exitThrow(I)V

    throw v5
.end method
