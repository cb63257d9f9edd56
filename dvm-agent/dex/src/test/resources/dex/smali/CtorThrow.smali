.class public Lsmalifix/CtorThrow;
.super Ljava/lang/Object;
.source "CtorThrow.smali"

.field public final value:I

# Throws before super() when x < 0 and after it when x == 13; super() is called through a copy
# of the uninitialized this.
.method public constructor <init>(I)V
    .registers 4
    if-gez p1, :ok
    new-instance v0, Ljava/lang/IllegalArgumentException;
    invoke-direct {v0}, Ljava/lang/IllegalArgumentException;-><init>()V
    throw v0
    :ok
    move-object v1, p0
    invoke-direct {v1}, Ljava/lang/Object;-><init>()V
    const/16 v0, 13
    if-ne p1, v0, :fine
    new-instance v0, Ljava/lang/IllegalStateException;
    invoke-direct {v0}, Ljava/lang/IllegalStateException;-><init>()V
    throw v0
    :fine
    iput p1, p0, Lsmalifix/CtorThrow;->value:I
    return-void
.end method

.method public static attempt(I)I
    .registers 3
    :try_start
    new-instance v0, Lsmalifix/CtorThrow;
    invoke-direct {v0, p0}, Lsmalifix/CtorThrow;-><init>(I)V
    iget v1, v0, Lsmalifix/CtorThrow;->value:I
    :try_end
    .catch Ljava/lang/RuntimeException; {:try_start .. :try_end} :bad
    return v1
    :bad
    const/4 v1, -1
    return v1
.end method
