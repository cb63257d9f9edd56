.class public Lsmalifix/Payloads;
.super Ljava/lang/Object;
.source "Payloads.smali"

# packed-switch in a loop (one case falls through to the loop's latch), fill-array-data and a
# sparse-switch after the loop: every payload must be re-aligned and re-pointed.
.method public static payloads(I)I
    .registers 6
    const/4 v0, 3
    new-array v0, v0, [I
    fill-array-data v0, :array
    const/4 v1, 0
    const/4 v2, 0
    :loop
    if-ge v2, p0, :done
    rem-int/lit8 v3, v2, 3
    packed-switch v3, :pswitch
    add-int/lit8 v1, v1, 100
    goto :next
    :case0
    aget v4, v0, v3
    add-int/2addr v1, v4
    goto :next
    :case1
    add-int/lit8 v1, v1, 1
    :next
    add-int/lit8 v2, v2, 1
    goto :loop
    :done
    sparse-switch v1, :sswitch
    return v1
    :big
    const/16 v1, -1
    return v1
    :array
    .array-data 4
        5 6 7
    .end array-data
    :pswitch
    .packed-switch 0
        :case0
        :case1
    .end packed-switch
    :sswitch
    .sparse-switch
        0x7 -> :big
        0x3e8 -> :big
    .end sparse-switch
.end method
