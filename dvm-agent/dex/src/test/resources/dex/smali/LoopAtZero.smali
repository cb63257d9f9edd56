.class public Lsmalifix/LoopAtZero;
.super Ljava/lang/Object;
.source "LoopAtZero.smali"

# The loop header is the first instruction: the method entry is one of the loop's entry edges,
# and the back edge must jump past the entry probes.
.method public static countDown(I)I
    .registers 2
    :loop
    add-int/lit8 p0, p0, -1
    if-gtz p0, :loop
    return p0
.end method
