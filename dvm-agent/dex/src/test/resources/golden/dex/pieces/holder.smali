.class public final Lorg/hyprof/pieces/P_de004dec377b6a04;
.super Ljava/lang/Object;


# static fields
.field public static final BASE:I


# direct methods
.method static constructor <clinit>()V
    .registers 2

    const-string v0, "de004dec377b6a04"

    const-class v1, Lorg/hyprof/pieces/P_de004dec377b6a04;

    invoke-static {v0, v1}, Lorg/hyprof/runtime/Hyprof;->piece(Ljava/lang/String;Ljava/lang/Class;)I

    move-result v0

    sput v0, Lorg/hyprof/pieces/P_de004dec377b6a04;->BASE:I

    return-void
.end method
