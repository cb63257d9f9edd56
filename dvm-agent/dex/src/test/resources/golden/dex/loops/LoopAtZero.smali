.class public Lsmalifix/LoopAtZero;
.super Ljava/lang/Object;
.source "LoopAtZero.smali"


# direct methods
.method public static countDown(I)I
    .registers 5

    move v1, p0

    const/16 v3, 0x7

    invoke-static {v3}, Lorg/hyprof/runtime/Probe;->enter(I)V

    const/16 v2, 0x8

    invoke-static {v2}, Lorg/hyprof/runtime/Probe;->loopEnter(I)V

    :goto_0
    :try_start_0
    add-int/lit8 v1, v1, -0x1

    if-gtz v1, :cond_0

    const/16 v2, 0x8

    invoke-static {v2}, Lorg/hyprof/runtime/Probe;->loopExit(I)V

    invoke-static {v3}, Lorg/hyprof/runtime/Probe;->exit(I)V

    return v1

    :cond_0
    const/16 v2, 0x8

    invoke-static {v2}, Lorg/hyprof/runtime/Probe;->loopIter(I)V

    goto :goto_0
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v2

    invoke-static {v3}, Lorg/hyprof/runtime/Probe;->exitThrow(I)V

    throw v2
.end method
