package org.hyprof.config;

import java.util.List;
import java.util.Map;
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

    /** Functional interfaces (dotted) whose single method, erased, is a thread entry. */
    private static final Map<String, String> THREAD_SAMS = Map.of(
            "java.lang.Runnable", "run()V",
            "java.util.concurrent.Callable", "call()Ljava/lang/Object;",
            "java.util.function.Supplier", "get()Ljava/lang/Object;");

    /** Methods (dotted owner + "." + name) that run a {@code Supplier} on another thread. */
    private static final Set<String> SUPPLIER_TO_THREAD = Set.of(
            "java.util.concurrent.CompletableFuture.supplyAsync");

    /**
     * Whether a lambda or method reference bound to a functional interface is a thread entry, so
     * that its body (the synthetic {@code lambda$…} method, or the referenced method) is
     * classified {@link Resolution#THREAD}: {@code Runnable.run} and {@code Callable.call} always
     * (as the {@code run}/{@code call} of classes implementing them are), {@code Supplier.get}
     * only when the bound object goes straight to a method that runs it on another thread
     * ({@code CompletableFuture.supplyAsync}), since most suppliers compute values in place.
     *
     * @param samInterface dotted functional interface the lambda implements
     * @param samName      its method's name
     * @param samDescriptor its method's erased descriptor
     * @param consumer     the method the bound object is passed to next ("dotted.Owner.name"), or null when unknown
     */
    public static boolean isThreadEntryBinding(String samInterface, String samName, String samDescriptor, String consumer) {
        String sam = THREAD_SAMS.get(samInterface);
        if (sam == null || !sam.equals(samName + samDescriptor)) return false;
        return !samInterface.equals("java.util.function.Supplier") || (consumer != null && SUPPLIER_TO_THREAD.contains(consumer));
    }

    /**
     * {@link #classify} for a method known to be the body of a thread-entry lambda or method
     * reference ({@link #isThreadEntryBinding}): {@link Resolution#THREAD} unless the method is a
     * process entry.
     */
    public static Resolution classify(String className, String superName, List<String> interfaces,
                                      String name, String descriptor, boolean isStatic, boolean threadEntryBody) {
        Resolution r = classify(className, superName, interfaces, name, descriptor, isStatic);
        return threadEntryBody && r == Resolution.METHOD ? Resolution.THREAD : r;
    }

    private static boolean looksLikeComponent(String className) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return simple.endsWith("Activity") || simple.endsWith("Service") || simple.endsWith("Application")
                || simple.endsWith("Receiver") || simple.endsWith("Provider");
    }
}
