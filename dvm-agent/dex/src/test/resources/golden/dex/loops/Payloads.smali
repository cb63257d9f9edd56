.class public Lsmalifix/Payloads;
.super Ljava/lang/Object;
.source "Payloads.smali"


# direct methods
.method public static payloads(I)I
    .registers 13

    move v5, p0

    sget v7, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    add-int/lit8 v7, v7, 0x10

    const/4 v8, 0x0

    add-int/lit8 v9, v7, 0x1

    const/4 v10, 0x0

    const/4 v11, 0x0

    invoke-static {v7}, Lorg/hyprof/runtime/Probe;->begin(I)I

    move-result v8

    :try_start_0
    const/4 v0, 0x3

    new-array v0, v0, [I

    fill-array-data v0, :array_0

    const/4 v1, 0x0

    const/4 v2, 0x0

    invoke-static {v9}, Lorg/hyprof/runtime/Probe;->loopBegin(I)I

    move-result v10

    const/4 v11, 0x0

    :goto_0
    if-ge v2, v5, :cond_0

    rem-int/lit8 v3, v2, 0x3

    packed-switch v3, :pswitch_data_0

    add-int/lit8 v1, v1, 0x64

    goto :goto_1

    :pswitch_0
    aget v4, v0, v3

    add-int/2addr v1, v4

    goto :goto_1

    :pswitch_1
    add-int/lit8 v1, v1, 0x1

    :goto_1
    add-int/lit8 v2, v2, 0x1

    add-int/lit8 v11, v11, 0x1

    goto :goto_0

    :goto_2
    sparse-switch v1, :sswitch_data_0

    invoke-static {v7, v8}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v1

    :sswitch_0
    const/16 v1, -0x1

    invoke-static {v7, v8}, Lorg/hyprof/runtime/Probe;->end(II)V

    return v1
    :try_end_0
    .catchall {:try_start_0 .. :try_end_0} :catchall_0

    nop

    :array_0
    .array-data 4
        0x5
        0x6
        0x7
    .end array-data

    :pswitch_data_0
    .packed-switch 0x0
        :pswitch_0
        :pswitch_1
    .end packed-switch

    :sswitch_data_0
    .sparse-switch
        0x7 -> :sswitch_0
        0x3e8 -> :sswitch_0
    .end sparse-switch

    :cond_0
    :try_start_1
    invoke-static {v9, v10, v11}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    const/4 v10, 0x0

    goto :goto_2
    :try_end_1
    .catchall {:try_start_1 .. :try_end_1} :catchall_0

    :catchall_0
    move-exception v6

    invoke-static {v9, v10, v11}, Lorg/hyprof/runtime/Probe;->loopEnd(III)V

    invoke-static {v7, v8}, Lorg/hyprof/runtime/Probe;->endThrow(II)V

    throw v6
.end method
