.class public Lsmalifix/MonitorLoop;
.super Ljava/lang/Object;
.source "MonitorLoop.smali"


# static fields
.field static total:I


# direct methods
.method public static sumLocked(Ljava/lang/Object;I)I
    .registers 13

    move-object v3, p0

    move v4, p1

    sget v6, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v6, v6, 0xb

    const/4 v7, 0x0

    add-int/lit8 v8, v6, 0x1

    const/4 v9, 0x0

    const/4 v10, 0x0

    invoke-static {v6}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v7

    :try_start_0
    const/4 v0, 0x0

    monitor-enter v3
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_1

    :try_start_1
    const/4 v1, 0x0

    invoke-static {v8}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v9

    const/4 v10, 0x0

    :goto_0
    if-ge v1, v4, :cond_0

    add-int/2addr v0, v1

    sget v2, Lsmalifix/MonitorLoop;->total:I

    add-int/2addr v2, v1

    sput v2, Lsmalifix/MonitorLoop;->total:I

    add-int/lit8 v1, v1, 0x1

    add-int/lit8 v10, v10, 0x1

    goto :goto_0

    :goto_1
    monitor-exit v3
    :try_end_1
    .catchall {:try_start_1 .. :try_end_1} :catchall_0

    :try_start_2
    invoke-static {v6, v7}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v0

    :catchall_0
    move-exception v2
    :try_end_2
    .catchall {:try_start_2 .. :try_end_2} :catchall_1

    :try_start_3
    invoke-static {v8, v9, v10}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/4 v9, 0x0

    monitor-exit v3
    :try_end_3
    .catchall {:try_start_3 .. :try_end_3} :catchall_0

    :try_start_4
    throw v2
    :try_end_4
    .catchall {:try_start_4 .. :try_end_4} :catchall_1

    :cond_0
    :try_start_5
    invoke-static {v8, v9, v10}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/4 v9, 0x0

    goto :goto_1
    :try_end_5
    .catchall {:try_start_5 .. :try_end_5} :catchall_0

    :catchall_1
    move-exception v5

    invoke-static {v8, v9, v10}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static {v6, v7}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v5
.end method
