/*
 * Imports of libandroid.so (assets, native windows) as real JNI libraries make them, for the
 * stand-in's test (bb-tracer LibAndroidTest). Linked against a throw-away libandroid.so that only
 * names the functions (build.sh), so its DT_NEEDED lists libandroid.so as an NDK build's does.
 * Build: ../build.sh
 */
typedef struct AAssetManager AAssetManager;
typedef struct AAsset AAsset;
typedef struct AAssetDir AAssetDir;
typedef struct ANativeWindow ANativeWindow;
typedef struct AConfiguration AConfiguration;

AAssetManager *AAssetManager_fromJava(void *env, void *assetManager);
AAsset *AAssetManager_open(AAssetManager *mgr, const char *filename, int mode);
AAssetDir *AAssetManager_openDir(AAssetManager *mgr, const char *dirName);
const char *AAssetDir_getNextFileName(AAssetDir *dir);
void AAssetDir_close(AAssetDir *dir);
int AAsset_read(AAsset *asset, void *buf, unsigned long count);
long AAsset_getLength(AAsset *asset);
void AAsset_close(AAsset *asset);
ANativeWindow *ANativeWindow_fromSurface(void *env, void *surface);
int ANativeWindow_getWidth(ANativeWindow *window);
int ANativeWindow_setBuffersGeometry(ANativeWindow *window, int width, int height, int format);
AConfiguration *AConfiguration_new(void);

/* a config file read from the APK's assets, or the built-in default: what such code does (default: 42) */
long asset_or_default(void) {
    AAssetManager *mgr = AAssetManager_fromJava(0, 0);
    if (!mgr) return -1;
    AAssetDir *dir = AAssetManager_openDir(mgr, "config");
    if (!dir) return -2;
    if (AAssetDir_getNextFileName(dir) != 0) return -3;
    AAssetDir_close(dir);
    AAsset *a = AAssetManager_open(mgr, "config/settings.bin", 2);
    if (!a) return 42;
    char buf[16];
    long n = AAsset_read(a, buf, sizeof buf);
    long len = AAsset_getLength(a);
    AAsset_close(a);
    return n + len;
}

/* a surface to draw on: none, so -1 (and the error codes the window calls give, summed: -44) */
long window_or_error(void) {
    ANativeWindow *w = ANativeWindow_fromSurface(0, 0);
    if (!w) return -1000 + ANativeWindow_getWidth(w) + ANativeWindow_setBuffersGeometry(w, 1, 1, 1);
    return 1;
}

/* a libandroid function the stand-in lacks: fails when called */
long configuration(void) {
    return AConfiguration_new() != 0;
}
