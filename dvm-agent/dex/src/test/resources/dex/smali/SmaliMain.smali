.class public Lsmalifix/SmaliMain;
.super Ljava/lang/Object;
.source "SmaliMain.smali"

# Runs every hand-written fixture once and prints its result.
.method public static main([Ljava/lang/String;)V
    .registers 6
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;

    const/4 v1, 5
    invoke-static {v1}, Lsmalifix/LoopAtZero;->countDown(I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    const/4 v1, 3
    invoke-static {v1}, Lsmalifix/MoveResultExit;->retry(I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    new-instance v2, Ljava/lang/Object;
    invoke-direct {v2}, Ljava/lang/Object;-><init>()V
    const/4 v1, 6
    invoke-static {v2, v1}, Lsmalifix/MonitorLoop;->sumLocked(Ljava/lang/Object;I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    const-wide/16 v2, 5
    const/4 v1, 4
    invoke-static {v2, v3, v1}, Lsmalifix/BigRegisters;->wide250(JI)J
    move-result-wide v2
    invoke-virtual {v0, v2, v3}, Ljava/io/PrintStream;->println(J)V

    new-instance v4, Lsmalifix/BigRegisters;
    invoke-direct {v4}, Lsmalifix/BigRegisters;-><init>()V
    const/4 v1, 5
    const-wide/16 v2, 6
    invoke-virtual {v4, v1, v2, v3}, Lsmalifix/BigRegisters;->inst240(IJ)J
    move-result-wide v2
    invoke-virtual {v0, v2, v3}, Ljava/io/PrintStream;->println(J)V

    const/4 v1, 1
    invoke-static {v1}, Lsmalifix/BigRegisters;->tooMany(I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    const/4 v1, 7
    invoke-static {v1}, Lsmalifix/Payloads;->payloads(I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    const/4 v1, 5
    invoke-static {v1}, Lsmalifix/CtorThrow;->attempt(I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    const/4 v1, -1
    invoke-static {v1}, Lsmalifix/CtorThrow;->attempt(I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    const/16 v1, 13
    invoke-static {v1}, Lsmalifix/CtorThrow;->attempt(I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    const/4 v1, 4
    invoke-static {v1}, Lsmalifix/BigRegisters;->twoLoops250(I)I
    move-result v1
    invoke-virtual {v0, v1}, Ljava/io/PrintStream;->println(I)V

    return-void
.end method
