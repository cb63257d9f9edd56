.class public Lsmalifix/MoveResultExit;
.super Ljava/lang/Object;
.source "MoveResultExit.smali"

.method public static maybeThrow(I)I
    .registers 3
    if-lez p0, :ok
    new-instance v0, Ljava/lang/IllegalStateException;
    invoke-direct {v0}, Ljava/lang/IllegalStateException;-><init>()V
    throw v0
    :ok
    const/16 v0, 42
    return v0
.end method

# A loop made of a handler: it is left on the edge from the invoke to its move-result, where no
# code may go (the loop-exit probe goes after the move-result).
.method public static retry(I)I
    .registers 4
    const/4 v0, 0
    :head
    :try_start
    invoke-static {p0}, Lsmalifix/MoveResultExit;->maybeThrow(I)I
    :try_end
    .catch Ljava/lang/IllegalStateException; {:try_start .. :try_end} :handler
    move-result v1
    add-int/2addr v1, v0
    return v1
    :handler
    move-exception v2
    add-int/lit8 v0, v0, 1
    add-int/lit8 p0, p0, -1
    goto :head
.end method
