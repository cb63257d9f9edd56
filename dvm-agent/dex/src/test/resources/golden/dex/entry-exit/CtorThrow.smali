.class public Lsmalifix/CtorThrow;
.super Ljava/lang/Object;
.source "CtorThrow.smali"


# instance fields
.field public final value:I


# direct methods
.method public constructor <init>(I)V
    .registers 9

    move-object v2, p0

    move v3, p1

    sget v5, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v5, v5, 0x7

    const/4 v6, 0x0

    if-gez v3, :cond_0

    new-instance v0, Ljava/lang/IllegalArgumentException;

    invoke-direct {v0}, Ljava/lang/IllegalArgumentException;-><init>()V

    throw v0

    :cond_0
    move-object v1, v2

    invoke-direct {v1}, Ljava/lang/Object;-><init>()V

    invoke-static {v5}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v6

    :try_start_0
    const/16 v0, 0xd

    if-ne v3, v0, :cond_1

    new-instance v0, Ljava/lang/IllegalStateException;

    invoke-direct {v0}, Ljava/lang/IllegalStateException;-><init>()V

    throw v0

    :cond_1
    iput v3, v2, Lsmalifix/CtorThrow;->value:I

    invoke-static {v5, v6}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-void
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v4

    invoke-static {v5, v6}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v4
.end method

.method public static attempt(I)I
    .registers 7

    move v2, p0

    sget v4, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v4, v4, 0x8

    const/4 v5, 0x0

    invoke-static {v4}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v5

    :try_start_0
    new-instance v0, Lsmalifix/CtorThrow;

    invoke-direct {v0, v2}, Lsmalifix/CtorThrow;-><init>(I)V

    iget v1, v0, Lsmalifix/CtorThrow;->value:I
    :try_end_0
    .catch Ljava/lang/RuntimeException; {:try_start_0 .. :try_end_0} :catch_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :try_start_1
    invoke-static {v4, v5}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v1

    :catch_0
    const/4 v1, -0x1

    invoke-static {v4, v5}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v1
    :try_end_1
    .catchall {:try_start_1 .. :try_end_1} :catchall_0

    :catchall_0
    move-exception v3

    invoke-static {v4, v5}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v3
.end method
