.class public Lsmalifix/BigRegisters;
.super Ljava/lang/Object;
.source "BigRegisters.smali"

.method public constructor <init>()V
    .registers 1
    invoke-direct {p0}, Ljava/lang/Object;-><init>()V
    return-void
.end method

# 250 registers: the probe registers are v250-v255 (exception, method id and token, the loop's id,
# token and counter), past the 4-bit forms (probe calls use invoke-static/range) and just within
# the 8-bit ones.
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

# An instance method with 240 registers: the frame grows by 3 + 4 (this, int, long).
.method public inst240(IJ)J
    .registers 240
    move/from16 v2, p1
    int-to-long v0, v2
    add-long v0, v0, p2
    invoke-virtual/range {p0 .. p0}, Ljava/lang/Object;->hashCode()I
    move-result v4
    return-wide v0
.end method

# 250 registers and two loops: below v256 there is room for the method's probe registers and one
# loop's; the second loop is left without probes and reported, the method and the first loop keep
# theirs.
.method public static twoLoops250(I)I
    .registers 250
    move/from16 v2, p0
    const/4 v0, 0
    const/4 v1, 0
    :first
    if-ge v1, v2, :between
    add-int/2addr v0, v1
    add-int/lit8 v1, v1, 1
    goto :first
    :between
    const/4 v1, 0
    :second
    if-ge v1, v2, :done
    add-int/2addr v0, v0
    add-int/lit8 v1, v1, 1
    goto :second
    :done
    return v0
.end method

# 255 registers: no room for the three 8-bit probe registers, so it is skipped and reported.
.method public static tooMany(I)I
    .registers 255
    add-int/lit8 v0, p0, 1
    return v0
.end method
