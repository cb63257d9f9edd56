.class public final Ldexfixtures/DebugLocals;
.super Ljava/lang/Object;
.source "DebugLocals.java"


# instance fields
.field private final base:J


# direct methods
.method constructor <init>(J)V
    .registers 9
    .param p1, "base"    # J

    .line 11
    move-object v0, p0

    move-wide v1, p1

    .end local p0    # "this":Ldexfixtures/DebugLocals;
    .end local p1    # "base":J
    .local v0, "this":Ldexfixtures/DebugLocals;
    .local v1, "base":J
    sget v4, Lorg/hyprof/pieces/P_0cd785ee6046265c;->BASE:I

    add-int/lit8 v4, v4, 0x6

    const/4 v5, 0x0

    invoke-direct {v0}, Ljava/lang/Object;-><init>()V

    .line 12
    invoke-static {v4}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v5

    :try_start_0
    iput-wide v1, v0, Ldexfixtures/DebugLocals;->base:J

    .line 13
    invoke-static {v4, v5}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-void
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v3

    invoke-static {v4, v5}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v3
.end method

.method static caughtUpTo(I)I
    .registers 13
    .param p0, "n"    # I

    .line 17
    move v5, p0

    .end local p0    # "n":I
    .local v5, "n":I
    sget v7, Lorg/hyprof/pieces/P_0cd785ee6046265c;->BASE:I

    add-int/lit8 v7, v7, 0x7

    const/4 v8, 0x0

    add-int/lit8 v9, v7, 0x1

    const/4 v10, 0x0

    const/4 v11, 0x0

    invoke-static {v7}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v8

    :try_start_0
    const/4 v0, 0x0

    .line 18
    .local v0, "caught":I
    const/4 v1, 0x0

    invoke-static {v9}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v10

    const/4 v11, 0x0

    .local v1, "i":I
    :goto_0
    if-ge v1, v5, :cond_1
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    .line 20
    :try_start_1
    rem-int/lit8 v2, v1, 0x3

    const/4 v3, 0x2

    if-eq v2, v3, :cond_0

    .line 24
    goto :goto_1

    .line 20
    :cond_0
    new-instance v2, Ljava/lang/IllegalStateException;

    new-instance v3, Ljava/lang/StringBuilder;

    invoke-direct {v3}, Ljava/lang/StringBuilder;-><init>()V

    const-string v4, "i="

    invoke-virtual {v3, v4}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v3

    invoke-virtual {v3, v1}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;

    move-result-object v3

    invoke-virtual {v3}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;

    move-result-object v3

    invoke-direct {v2, v3}, Ljava/lang/IllegalStateException;-><init>(Ljava/lang/String;)V

    .end local v0    # "caught":I
    .end local v1    # "i":I
    .end local v5    # "n":I
    throw v2
    :try_end_1
    .catch Ljava/lang/IllegalStateException; {:try_start_1 .. :try_end_1} :catch_0
    .catchall {:try_start_1 .. :try_end_1} :catchall_0

    .line 21
    .restart local v0    # "caught":I
    .restart local v1    # "i":I
    .restart local v5    # "n":I
    :catch_0
    :try_start_2
    move-exception v2

    .line 22
    .local v2, "e":Ljava/lang/IllegalStateException;
    add-int/lit8 v0, v0, 0x1

    .line 23
    add-int/lit8 v3, v5, 0x4

    if-gt v1, v3, :cond_2

    .line 18
    .end local v2    # "e":Ljava/lang/IllegalStateException;
    :goto_1
    add-int/lit8 v1, v1, 0x1

    add-int/lit8 v11, v11, 0x1

    goto :goto_0

    .line 23
    .restart local v2    # "e":Ljava/lang/IllegalStateException;
    :goto_2
    throw v2

    .line 26
    .end local v1    # "i":I
    .end local v2    # "e":Ljava/lang/IllegalStateException;
    :goto_3
    add-int v1, v0, v5

    invoke-static {v7, v8}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v1

    .line 26
    :cond_1
    invoke-static {v9, v10, v11}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/4 v10, 0x0

    goto :goto_3

    .line 23
    :cond_2
    invoke-static {v9, v10, v11}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/4 v10, 0x0

    goto :goto_2
    :try_end_2
    .catchall {:try_start_2 .. :try_end_2} :catchall_0

    :catchall_0
    move-exception v6

    invoke-static {v9, v10, v11}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static {v7, v8}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v6
.end method

.method static many(JDIJ)J
    .registers 51
    .param p0, "a"    # J
    .param p2, "b"    # D
    .param p4, "c"    # I
    .param p5, "d"    # J

    .line 63
    move-wide/from16 v31, p0

    move-wide/from16 v33, p2

    move/from16 v35, p4

    move-wide/from16 v36, p5

    .end local p0    # "a":J
    .end local p2    # "b":D
    .end local p4    # "c":I
    .end local p5    # "d":J
    .local v31, "a":J
    .local v33, "b":D
    .local v35, "c":I
    .local v36, "d":J
    sget v39, Lorg/hyprof/pieces/P_0cd785ee6046265c;->BASE:I

    add-int/lit8 v39, v39, 0x9

    const/16 v40, 0x0

    add-int/lit8 v41, v39, 0x1

    const/16 v42, 0x0

    const/16 v43, 0x0

    invoke-static/range {v39 .. v39}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v40

    :try_start_0
    move-wide/from16 v0, v31

    move/from16 v2, v35

    move-wide/from16 v3, v36

    const-wide/16 v5, 0x1

    add-long/2addr v5, v0

    .local v5, "v0":J
    const-wide/16 v7, 0x3

    mul-long v7, v7, v0

    .local v7, "v1":J
    const-wide/16 v9, 0x7

    sub-long v9, v3, v9

    .local v9, "v2":J
    xor-long v11, v0, v3

    .local v11, "v3":J
    int-to-long v13, v2

    or-long/2addr v13, v0

    .local v13, "v4":J
    const-wide/16 v15, 0xff

    and-long/2addr v15, v3

    .local v15, "v5":J
    const/16 v17, 0x3

    shl-long v17, v0, v17

    .local v17, "v6":J
    const/16 v19, 0x2

    shr-long v19, v3, v19

    .line 64
    .local v19, "v7":J
    const-wide/high16 v21, 0x4000000000000000L    # 2.0

    mul-double v21, v21, v33

    move-wide/from16 v23, v13

    .end local v13    # "v4":J
    .local v21, "w0":D
    .local v23, "v4":J
    long-to-double v13, v0

    add-double v13, v33, v13

    .local v13, "w1":D
    long-to-double v0, v3

    sub-double v0, v33, v0

    .line 65
    .local v0, "w2":D
    const-wide/16 v25, 0x0

    .line 66
    .local v25, "s":J
    const/16 v27, 0x0

    move/from16 v3, v27

    invoke-static/range {v41 .. v41}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v42

    const/16 v43, 0x0

    .local v3, "i":I
    :goto_0
    if-ge v3, v2, :cond_0

    .line 67
    add-long v27, v5, v7

    add-long v27, v27, v9

    add-long v27, v27, v11

    move-wide/from16 v29, v11

    .end local v11    # "v3":J
    .local v29, "v3":J
    int-to-long v11, v3

    add-long v27, v27, v11

    .line 68
    .local v27, "k":J
    add-long v11, v27, v23

    add-long/2addr v11, v15

    add-long v11, v11, v17

    add-long v11, v11, v19

    add-long v25, v25, v11

    .line 66
    .end local v27    # "k":J
    add-int/lit8 v3, v3, 0x1

    move-wide/from16 v11, v29

    add-int/lit8 v43, v43, 0x1

    goto :goto_0

    .end local v29    # "v3":J
    .restart local v11    # "v3":J
    :goto_1
    move-wide/from16 v29, v11

    .line 70
    .end local v3    # "i":I
    .end local v11    # "v3":J
    .restart local v29    # "v3":J
    add-double v3, v21, v13

    add-double/2addr v3, v0

    double-to-long v3, v3

    add-long v3, v25, v3

    .line 71
    .end local v31    # "a":J
    .local v3, "a":J
    mul-long v11, v5, v19

    add-long/2addr v11, v3

    mul-long v27, v7, v17

    add-long v11, v11, v27

    mul-long v27, v9, v15

    add-long v11, v11, v27

    mul-long v27, v29, v23

    add-long v11, v11, v27

    invoke-static/range {v39 .. v40}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-wide v11

    .line 66
    :cond_0
    invoke-static/range {v41 .. v43}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/16 v42, 0x0

    goto :goto_1
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v38

    invoke-static/range {v41 .. v43}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static/range {v39 .. v40}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v38
.end method

.method static reassigned(Ljava/lang/String;I)Ljava/lang/String;
    .registers 14
    .param p0, "s"    # Ljava/lang/String;
    .param p1, "times"    # I

    .line 31
    move-object v4, p0

    move v5, p1

    .end local p0    # "s":Ljava/lang/String;
    .end local p1    # "times":I
    .local v4, "s":Ljava/lang/String;
    .local v5, "times":I
    sget v7, Lorg/hyprof/pieces/P_0cd785ee6046265c;->BASE:I

    add-int/lit8 v7, v7, 0xb

    const/4 v8, 0x0

    add-int/lit8 v9, v7, 0x1

    const/4 v10, 0x0

    const/4 v11, 0x0

    invoke-static {v7}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v8

    :try_start_0
    new-instance v0, Ljava/lang/StringBuilder;

    invoke-direct {v0}, Ljava/lang/StringBuilder;-><init>()V

    .line 32
    invoke-static {v9}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v10

    const/4 v11, 0x0

    .local v0, "b":Ljava/lang/StringBuilder;
    :goto_0
    add-int/lit8 v1, v5, -0x1

    .end local v5    # "times":I
    .local v1, "times":I
    const/4 v2, 0x3

    if-lez v5, :cond_2

    .line 33
    invoke-virtual {v0, v4}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    .line 34
    invoke-virtual {v4}, Ljava/lang/String;->length()I

    move-result v5

    if-le v5, v2, :cond_0

    const/4 v5, 0x1

    invoke-virtual {v4, v5}, Ljava/lang/String;->substring(I)Ljava/lang/String;

    move-result-object v5

    goto :goto_1

    :cond_0
    new-instance v5, Ljava/lang/StringBuilder;

    invoke-direct {v5}, Ljava/lang/StringBuilder;-><init>()V

    invoke-virtual {v5, v4}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v5

    const-string v2, "x"

    invoke-virtual {v5, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v5

    invoke-virtual {v5}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;

    move-result-object v5

    :goto_1
    move-object v4, v5

    move v5, v1

    add-int/lit8 v11, v11, 0x1

    goto :goto_0

    .line 36
    :goto_2
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->length()I

    move-result v5

    const/16 v3, 0xa

    if-le v5, v3, :cond_1

    .line 37
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->length()I

    move-result v5

    sub-int/2addr v5, v2

    invoke-virtual {v0, v5}, Ljava/lang/StringBuilder;->substring(I)Ljava/lang/String;

    move-result-object v5

    .line 38
    .local v5, "tail":Ljava/lang/String;
    move-object v4, v5

    .line 39
    .end local v5    # "tail":Ljava/lang/String;
    goto :goto_3

    .line 40
    :cond_1
    invoke-virtual {v0}, Ljava/lang/StringBuilder;->length()I

    move-result v5

    .line 41
    .local v5, "len":I
    new-instance v2, Ljava/lang/StringBuilder;

    invoke-direct {v2}, Ljava/lang/StringBuilder;-><init>()V

    invoke-virtual {v2, v4}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v2

    invoke-virtual {v2, v5}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;

    move-result-object v2

    invoke-virtual {v2}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;

    move-result-object v4

    .line 43
    .end local v5    # "len":I
    :goto_3
    invoke-static {v7, v8}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-object v4

    .line 36
    :cond_2
    invoke-static {v9, v10, v11}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/4 v10, 0x0

    goto :goto_2
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v6

    invoke-static {v9, v10, v11}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static {v7, v8}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v6
.end method

.method static run()Ljava/lang/String;
    .registers 15

    .line 75
    sget v13, Lorg/hyprof/pieces/P_0cd785ee6046265c;->BASE:I

    add-int/lit8 v13, v13, 0xd

    const/4 v14, 0x0

    invoke-static {v13}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v14

    :try_start_0
    const/16 v0, 0x9

    invoke-static {v0}, Ldexfixtures/DebugLocals;->caughtUpTo(I)I

    move-result v0

    const-string v1, "abcdef"

    const/4 v2, 0x5

    invoke-static {v1, v2}, Ldexfixtures/DebugLocals;->reassigned(Ljava/lang/String;I)Ljava/lang/String;

    move-result-object v1

    const-string v2, "ab"

    const/4 v3, 0x2

    invoke-static {v2, v3}, Ldexfixtures/DebugLocals;->reassigned(Ljava/lang/String;I)Ljava/lang/String;

    move-result-object v2

    new-instance v3, Ldexfixtures/DebugLocals;

    const-wide/16 v4, 0x5

    invoke-direct {v3, v4, v5}, Ldexfixtures/DebugLocals;-><init>(J)V

    .line 76
    const-wide/16 v4, 0x2

    const-wide/high16 v6, 0x3fe0000000000000L    # 0.5

    const/4 v8, 0x3

    const-wide/16 v9, 0x7

    invoke-virtual/range {v3 .. v10}, Ldexfixtures/DebugLocals;->wide(JDIJ)D

    move-result-wide v3

    const/4 v9, 0x4

    const-wide/16 v10, 0x2a6

    const-wide/16 v5, 0x3039

    const-wide/high16 v7, 0x3ff4000000000000L    # 1.25

    invoke-static/range {v5 .. v11}, Ldexfixtures/DebugLocals;->many(JDIJ)J

    move-result-wide v5

    new-instance v7, Ljava/lang/StringBuilder;

    invoke-direct {v7}, Ljava/lang/StringBuilder;-><init>()V

    invoke-virtual {v7, v0}, Ljava/lang/StringBuilder;->append(I)Ljava/lang/StringBuilder;

    move-result-object v0

    const-string v7, " "

    invoke-virtual {v0, v7}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v0

    invoke-virtual {v0, v1}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v0

    invoke-virtual {v0, v7}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v0

    invoke-virtual {v0, v2}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v0

    invoke-virtual {v0, v7}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v0

    invoke-virtual {v0, v3, v4}, Ljava/lang/StringBuilder;->append(D)Ljava/lang/StringBuilder;

    move-result-object v0

    invoke-virtual {v0, v7}, Ljava/lang/StringBuilder;->append(Ljava/lang/String;)Ljava/lang/StringBuilder;

    move-result-object v0

    invoke-virtual {v0, v5, v6}, Ljava/lang/StringBuilder;->append(J)Ljava/lang/StringBuilder;

    move-result-object v0

    invoke-virtual {v0}, Ljava/lang/StringBuilder;->toString()Ljava/lang/String;

    move-result-object v0

    .line 75
    invoke-static {v13, v14}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-object v0
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v12

    invoke-static {v13, v14}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v12
.end method


# virtual methods
.method wide(JDIJ)D
    .registers 27
    .param p1, "a"    # J
    .param p3, "b"    # D
    .param p5, "c"    # I
    .param p6, "d"    # J

    .line 48
    move-object/from16 v5, p0

    move-wide/from16 v6, p1

    move-wide/from16 v8, p3

    move/from16 v10, p5

    move-wide/from16 v11, p6

    .end local p0    # "this":Ldexfixtures/DebugLocals;
    .end local p1    # "a":J
    .end local p3    # "b":D
    .end local p5    # "c":I
    .end local p6    # "d":J
    .local v5, "this":Ldexfixtures/DebugLocals;
    .local v6, "a":J
    .local v8, "b":D
    .local v10, "c":I
    .local v11, "d":J
    sget v14, Lorg/hyprof/pieces/P_0cd785ee6046265c;->BASE:I

    add-int/lit8 v14, v14, 0xe

    const/4 v15, 0x0

    add-int/lit8 v16, v14, 0x1

    const/16 v17, 0x0

    const/16 v18, 0x0

    invoke-static {v14}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v15

    :try_start_0
    const/4 v0, 0x2

    if-le v10, v0, :cond_0

    .line 49
    const-wide/16 v0, 0x3

    mul-long v0, v0, v6

    .line 50
    .local v0, "t":J
    sub-long v6, v0, v11

    .line 52
    .end local v0    # "t":J
    :cond_0
    iget-wide v0, v5, Ldexfixtures/DebugLocals;->base:J

    long-to-double v0, v0

    long-to-double v2, v6

    mul-double v2, v2, v8

    add-double/2addr v0, v2

    .line 53
    .local v0, "r":D
    const/4 v2, 0x0

    invoke-static/range {v16 .. v16}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v17

    const/16 v18, 0x0

    .local v2, "i":I
    :goto_0
    if-ge v2, v10, :cond_1

    .line 54
    add-int/lit8 v3, v2, 0x1

    int-to-double v3, v3

    div-double v3, v0, v3

    .line 55
    .local v3, "step":D
    add-double/2addr v0, v3

    .line 53
    .end local v3    # "step":D
    add-int/lit8 v2, v2, 0x1

    add-int/lit8 v18, v18, 0x1

    goto :goto_0

    .line 57
    .end local v2    # "i":I
    :goto_1
    double-to-long v2, v0

    xor-long/2addr v11, v2

    .line 58
    long-to-double v2, v11

    add-double/2addr v2, v0

    invoke-static {v14, v15}, Lorg/hyprof/runtime/Probe;->end(II)V

    return-wide v2

    .line 57
    :cond_1
    invoke-static/range {v16 .. v18}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/16 v17, 0x0

    goto :goto_1
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    :catchall_0
    move-exception v13

    invoke-static/range {v16 .. v18}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static {v14, v15}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v13
.end method
