.class public Lsmalifix/LoopAtZero;
.super Ljava/lang/Object;
.source "LoopAtZero.smali"


# direct methods
.method public static countDown(I)I
    .registers 9

    move v1, p0

    sget v3, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v3, v3, 0x9

    const/4 v4, 0x0

    add-int/lit8 v5, v3, 0x1

    const/4 v6, 0x0

    const/4 v7, 0x0

    invoke-static {v3}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v4

    invoke-static {v5}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v6

    const/4 v7, 0x0

    :goto_0
    :try_start_0
    add-int/lit8 v1, v1, -0x1

    if-gtz v1, :cond_0

    invoke-static {v5, v6, v7}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/4 v6, 0x0

    invoke-static {v3, v4}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v1

    :cond_0
    add-int/lit8 v7, v7, 0x1

    goto :goto_0
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v2

    invoke-static {v5, v6, v7}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static {v3, v4}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v2
.end method
