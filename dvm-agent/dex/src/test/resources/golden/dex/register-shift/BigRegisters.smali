.class public Lsmalifix/BigRegisters;
.super Ljava/lang/Object;
.source "BigRegisters.smali"


# direct methods
.method public constructor <init>()V
    .registers 5

    move-object v0, p0

    sget v2, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v2, v2, 0x1

    const/4 v3, 0x0

    invoke-direct {v0}, Ljava/lang/Object;-><init>()V

    invoke-static {v2}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v3

    :try_start_0
    invoke-static {v2, v3}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-void
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v1

    invoke-static {v2, v3}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v1
.end method

.method public static tooMany(I)I
    .registers 255

    add-int/lit8 v0, p0, 0x1

    return v0
.end method

.method public static twoLoops250(I)I
    .registers 257

    move/from16 v249, p0

    sget v251, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v251, v251, 0x2

    const/16 v252, 0x0

    add-int/lit8 v253, v251, 0x1

    const/16 v254, 0x0

    const/16 v255, 0x0

    invoke-static/range {v251 .. v251}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v252

    :try_start_0
    move/from16 v2, v249

    const/4 v0, 0x0

    const/4 v1, 0x0

    invoke-static/range {v253 .. v253}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v254

    const/16 v255, 0x0

    :goto_0
    if-ge v1, v2, :cond_1

    add-int/2addr v0, v1

    add-int/lit8 v1, v1, 0x1

    add-int/lit8 v255, v255, 0x1

    goto :goto_0

    :goto_1
    const/4 v1, 0x0

    :goto_2
    if-ge v1, v2, :cond_0

    add-int/2addr v0, v0

    add-int/lit8 v1, v1, 0x1

    goto :goto_2

    :cond_0
    invoke-static/range {v251 .. v252}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v0

    :cond_1
    invoke-static/range {v253 .. v255}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/16 v254, 0x0

    goto :goto_1
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v250

    invoke-static/range {v253 .. v255}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static/range {v251 .. v252}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v250
.end method

.method public static wide250(JI)J
    .registers 259

    move-wide/from16 v247, p0

    move/from16 v249, p2

    sget v251, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v251, v251, 0x4

    const/16 v252, 0x0

    add-int/lit8 v253, v251, 0x1

    const/16 v254, 0x0

    const/16 v255, 0x0

    invoke-static/range {v251 .. v251}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v252

    :try_start_0
    const-wide/16 v0, 0x0

    const/4 v2, 0x0

    move/from16 v3, v249

    invoke-static/range {v253 .. v253}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v254

    const/16 v255, 0x0

    :goto_0
    if-ge v2, v3, :cond_0

    add-long v0, v0, v247

    add-int/lit8 v2, v2, 0x1

    add-int/lit8 v255, v255, 0x1

    goto :goto_0

    :goto_1
    invoke-static/range {v251 .. v252}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-wide v0

    :cond_0
    invoke-static/range {v253 .. v255}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/16 v254, 0x0

    goto :goto_1
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v250

    invoke-static/range {v253 .. v255}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static/range {v251 .. v252}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v250
.end method


# virtual methods
.method public inst240(IJ)J
    .registers 247

    move-object/from16 v236, p0

    move/from16 v237, p1

    move-wide/from16 v238, p2

    sget v241, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v241, v241, 0x6

    const/16 v242, 0x0

    invoke-static/range {v241 .. v241}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v242

    :try_start_0
    move/from16 v2, v237

    int-to-long v0, v2

    add-long v0, v0, v238

    invoke-virtual/range {v236 .. v236}, Ljava/lang/Object;->hashCode()I

    move-result v4

    invoke-static/range {v241 .. v242}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-wide v0
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v240

    invoke-static/range {v241 .. v242}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v240
.end method
