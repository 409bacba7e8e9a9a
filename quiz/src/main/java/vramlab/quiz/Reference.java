package vramlab.quiz;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loads questions so that their keys come from the kit's reference simulator, never from the
 * student's copy. Under {@code -Plab} (and in the batch grader) the test classpath holds the
 * student's cores, where a step may be missing or wrong; a question is then loaded in a
 * child-first class loader over the reference cores ({@code solutions/target/classes}, or the
 * path list in {@code -Dvramlab.reference.classpath}) and the question's own classes. Only the
 * harness ({@code vramlab.quiz.*}) and the JDK are shared with the test, so a key can only be
 * handed back as harness types: parts, blanks and checks.
 *
 * <p>Rule for question authors: a question may use the cores (units, driver, alloc, ...) and
 * its own package, not the toolkit or another chapter.
 */
public final class Reference {
    private static final Map<List<URL>, ClassLoader> LOADERS = new ConcurrentHashMap<>();
    private static final List<String> SHARED = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
            "org.junit.", "org.assertj.", "org.opentest4j.", "org.apiguardian.", "vramlab.quiz.");

    private Reference() {}

    /** A new instance of {@code type}, its keys computed on the reference simulator. */
    public static Question load(Class<? extends Question> type) {
        List<URL> reference = referenceClasspath(type);
        try {
            if (reference.isEmpty()) return type.getDeclaredConstructor().newInstance();
            List<URL> urls = new ArrayList<>(reference);
            urls.add(type.getProtectionDomain().getCodeSource().getLocation());
            ClassLoader loader = LOADERS.computeIfAbsent(urls, u -> new ChildFirst(u, type.getClassLoader()));
            Class<?> isolated = Class.forName(type.getName(), true, loader);
            return (Question) isolated.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load question " + type.getName() + ": " + e, e);
        }
    }

    /** Empty when the test already runs on the reference cores. */
    static List<URL> referenceClasspath(Class<?> type) {
        String explicit = System.getProperty("vramlab.reference.classpath");
        if (explicit != null && !explicit.isBlank()) {
            List<URL> urls = new ArrayList<>();
            for (String p : explicit.split(File.pathSeparator)) if (!p.isBlank()) urls.add(url(Path.of(p)));
            return urls;
        }
        if (!onLabCore(type.getClassLoader())) return List.of();
        Path classes = KitPaths.root().resolve("solutions/target/classes");
        if (!Files.isDirectory(classes)) {
            throw new IllegalStateException("the kit's reference simulator is not built (" + classes
                    + " is missing): run mvn -q -DskipTests package first");
        }
        return List.of(url(classes));
    }

    /** True when the cores on this classpath are the student's ({@code labs/}). */
    public static boolean onLabCore(ClassLoader loader) {
        URL todo = loader.getResource("vramlab/lab/Todo.class");
        if (todo == null) return false;
        String where = todo.toString().replace('\\', '/');
        return where.contains("/labs/target/") || where.contains("/vramlab-labs");
    }

    private static URL url(Path p) {
        try {
            return p.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("bad reference path " + p, e);
        }
    }

    /** Looks in its own URLs first, except for the JDK, the test frameworks and the harness. */
    private static final class ChildFirst extends URLClassLoader {
        ChildFirst(List<URL> urls, ClassLoader parent) { super(urls.toArray(URL[]::new), parent); }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                for (String prefix : SHARED) if (name.startsWith(prefix)) return super.loadClass(name, resolve);
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try {
                        c = findClass(name);
                    } catch (ClassNotFoundException e) {
                        return super.loadClass(name, resolve);
                    }
                }
                if (resolve) resolveClass(c);
                return c;
            }
        }
    }
}
