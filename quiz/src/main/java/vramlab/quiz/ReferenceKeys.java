package vramlab.quiz;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Map;
import java.util.Properties;
import java.util.WeakHashMap;

/**
 * The keys of quiz parts that no simulator computes (a choice that is the same for every
 * student: which layer owns a decision, why a fix works). They are kept beside the reference
 * cores, in {@value #RESOURCE} of {@code solutions/src/main/resources}, never as literals in a
 * question's source, which a student release hands out. A question reads them through its own
 * class loader, which {@link Reference} points at the reference cores; a copy without them (a
 * release) gets an {@link IllegalStateException}, as it does for a key the simulator computes.
 */
public final class ReferenceKeys {
    /** Where the keys are, on the reference cores' class path. */
    public static final String RESOURCE = "vramlab/keys/quiz-choices.properties";

    private static final Map<ClassLoader, Properties> LOADED = new WeakHashMap<>();

    private ReferenceKeys() {}

    /** The key of the choice blank {@code key}, one of {@code type}'s constants. */
    public static <E extends Enum<E>> E choice(String key, Class<E> type) {
        String name = raw(key, type);
        E e = Blanks.read(type, name);
        if (e == null) throw new IllegalStateException(RESOURCE + ": " + key + " = " + name + " is not one of: " + Blanks.options(type));
        return e;
    }

    /** The key of the blank {@code key} that takes a set of {@code type}'s constants, written with commas. */
    public static <E extends Enum<E>> EnumSet<E> choices(String key, Class<E> type) {
        EnumSet<E> set = EnumSet.noneOf(type);
        for (String part : raw(key, type).split(",")) {
            if (part.isBlank()) continue;
            E e = Blanks.read(type, part);
            if (e == null) throw new IllegalStateException(RESOURCE + ": " + key + ": '" + part.strip() + "' is not one of: " + Blanks.options(type));
            set.add(e);
        }
        return set;
    }

    private static String raw(String key, Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        Properties keys;
        synchronized (LOADED) {
            keys = LOADED.get(loader);
            if (keys == null) {
                keys = load(loader);
                LOADED.put(loader, keys);
            }
        }
        String v = keys.getProperty(key);
        if (v == null) {
            throw new IllegalStateException("the key of " + key + " is kept with the kit's reference cores ("
                    + RESOURCE + "), which this copy does not have");
        }
        return v.strip();
    }

    private static Properties load(ClassLoader loader) {
        Properties p = new Properties();
        URL url = loader == null ? null : loader.getResource(RESOURCE);
        if (url == null) return p;
        try (InputStream in = url.openStream()) {
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(RESOURCE + ": " + e.getMessage(), e);
        }
        return p;
    }
}
