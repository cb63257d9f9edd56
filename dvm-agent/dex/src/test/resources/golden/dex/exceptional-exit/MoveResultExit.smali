.class public Lsmalifix/MoveResultExit;
.super Ljava/lang/Object;
.source "MoveResultExit.smali"


# direct methods
.method public static maybeThrow(I)I
    .registers 7

    move v2, p0

    sget v4, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v4, v4, 0xd

    const/4 v5, 0x0

    invoke-static {v4}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v5

    :try_start_0
    if-lez v2, :cond_0

    new-instance v0, Ljava/lang/IllegalStateException;

    invoke-direct {v0}, Ljava/lang/IllegalStateException;-><init>()V

    throw v0

    :cond_0
    const/16 v0, 0x2a

    invoke-static {v4, v5}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v0
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v3

    invoke-static {v4, v5}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v3
.end method

.method public static retry(I)I
    .registers 11

    move v3, p0

    sget v5, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v5, v5, 0xe

    const/4 v6, 0x0

    add-int/lit8 v7, v5, 0x1

    const/4 v8, 0x0

    const/4 v9, 0x0

    invoke-static {v5}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v6

    :try_start_0
    const/4 v0, 0x0

    invoke-static {v7}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v8

    const/4 v9, 0x0
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :goto_0
    :try_start_1
    invoke-static {v3}, Lsmalifix/MoveResultExit;->maybeThrow(I)I
    :try_end_1
    .catch Ljava/lang/IllegalStateException; {:try_start_1 .. :try_end_1} :catch_0
    .catchall {:try_start_1 .. :try_end_1} :catchall_0

    :try_start_2
    move-result v1

    invoke-static {v7, v8, v9}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/4 v8, 0x0

    add-int/2addr v1, v0

    invoke-static {v5, v6}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v1

    :catch_0
    move-exception v2

    add-int/lit8 v0, v0, 0x1

    add-int/lit8 v3, v3, -0x1

    add-int/lit8 v9, v9, 0x1

    goto :goto_0
    :try_end_2
    .catchall {:try_start_2 .. :try_end_2} :catchall_0

    :catchall_0
    move-exception v4

    invoke-static {v7, v8, v9}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static {v5, v6}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v4
.end method
