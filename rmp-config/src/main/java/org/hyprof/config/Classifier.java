package org.hyprof.config;

import java.util.List;
import java.util.Set;

/**
 * Classifies a method into a {@link Resolution} from what both instrumenters know without
 * loading classes: its class's direct superclass and interfaces, its name and descriptor.
 * Android component classes are recognized by their framework superclass (the common AndroidX
 * bases included); a subclass of an app's own base activity is classified by name alone when it
 * overrides a lifecycle method of the same signature.
 */
public final class Classifier {
    private Classifier() {}

    private static final Set<String> COMPONENT_BASES = Set.of(
            "android.app.Application", "android.app.Activity", "android.app.ListActivity",
            "android.app.Service", "android.app.IntentService", "android.content.BroadcastReceiver",
            "android.content.ContentProvider", "androidx.appcompat.app.AppCompatActivity",
            "androidx.fragment.app.FragmentActivity", "androidx.activity.ComponentActivity",
            "androidx.core.app.ComponentActivity", "androidx.multidex.MultiDexApplication",
            "androidx.lifecycle.LifecycleService", "android.app.Fragment", "androidx.fragment.app.Fragment");

    /** Lifecycle methods (name + descriptor) of Android components. */
    private static final Set<String> LIFECYCLE = Set.of(
            "onCreate(Landroid/os/Bundle;)V", "onCreate()V", "onStart()V", "onResume()V", "onPause()V",
            "onStop()V", "onDestroy()V", "onRestart()V",
            "onStartCommand(Landroid/content/Intent;II)I",
            "onReceive(Landroid/content/Context;Landroid/content/Intent;)V",
            "onCreateView(Landroid/view/LayoutInflater;Landroid/view/ViewGroup;Landroid/os/Bundle;)Landroid/view/View;");

    private static final Set<String> THREAD_BASES = Set.of(
            "java.lang.Thread", "java.util.TimerTask", "android.os.HandlerThread");

    /**
     * @param className   dotted class name
     * @param superName   dotted direct superclass (null for interfaces' Object)
     * @param interfaces  dotted direct interfaces
     * @param name        method name
     * @param descriptor  method descriptor
     * @param isStatic    static method
     */
    public static Resolution classify(String className, String superName, List<String> interfaces,
                                      String name, String descriptor, boolean isStatic) {
        String sig = name + descriptor;
        if (isStatic && sig.equals("main([Ljava/lang/String;)V")) return Resolution.PROCESS;
        if (!isStatic && LIFECYCLE.contains(sig)
                && (COMPONENT_BASES.contains(superName) || looksLikeComponent(className)))
            return Resolution.PROCESS;
        if (!isStatic) {
            if (sig.equals("run()V") && (interfaces.contains("java.lang.Runnable") || THREAD_BASES.contains(superName)))
                return Resolution.THREAD;
            if (sig.equals("call()Ljava/lang/Object;") && interfaces.contains("java.util.concurrent.Callable"))
                return Resolution.THREAD;
            if (name.equals("doInBackground") && "android.os.AsyncTask".equals(superName))
                return Resolution.THREAD;
            if (sig.equals("handleMessage(Landroid/os/Message;)V")
                    && ("android.os.Handler".equals(superName) || interfaces.contains("android.os.Handler$Callback")))
                return Resolution.THREAD;
        }
        return Resolution.METHOD;
    }

    private static boolean looksLikeComponent(String className) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return simple.endsWith("Activity") || simple.endsWith("Service") || simple.endsWith("Application")
                || simple.endsWith("Receiver") || simple.endsWith("Provider");
    }
}
