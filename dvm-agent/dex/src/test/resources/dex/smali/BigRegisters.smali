.class public Lsmalifix/BigRegisters;
.super Ljava/lang/Object;
.source "BigRegisters.smali"

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

# 250 registers: the scratch registers are v250 and v251, past the 4-bit forms (probe calls use
# invoke-static/range) and still within the 8-bit ones.
.method public static wide250(JI)J
    .registers 250
    const-wide/16 v0, 0
    const/4 v2, 0
    move/from16 v3, p2
    :loop
    if-ge v2, v3, :done
    add-long v0, v0, p0
    add-int/lit8 v2, v2, 1
    goto :loop
    :done
    return-wide v0
.end method

# An instance method with 240 registers: the frame grows by 2 + 4 (this, int, long).
.method public inst240(IJ)J
    .registers 240
    move/from16 v2, p1
    int-to-long v0, v2
    add-long v0, v0, p2
    invoke-virtual/range {p0 .. p0}, Ljava/lang/Object;->hashCode()I
    move-result v4
    return-wide v0
.end method

# 255 registers: no room for two 8-bit scratch registers, so it is skipped and reported.
.method public static tooMany(I)I
    .registers 255
    add-int/lit8 v0, p0, 1
    return v0
.end method
