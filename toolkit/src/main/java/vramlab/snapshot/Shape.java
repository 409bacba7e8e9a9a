package vramlab.snapshot;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import vramlab.trace.TraceException;

/**
 * The shape of what a snapshot file held, checked before anything reads it: nested at most
 * {@value #MAX_DEPTH} deep (a real snapshot nests 7: dict, segments, segment, blocks, block,
 * frames, frame) and never holding itself. A pickle can make a list that contains itself (its
 * memo hands back an object still being built), and the first printing, hashing or recursive
 * walk of it would never end. The walk is iterative and visits each container once, however
 * many times the file refers to it, so it costs one step per object the file made.
 * <p>
 * {@link #describe} says what a value is in the words of the snapshot's own language (a dict, a
 * list, the string 'x', the integer 3), never a Java type name and never the whole value.
 */
final class Shape {
    /** The deepest nesting a snapshot file may have. */
    static final int MAX_DEPTH = 64;

    private Shape() {}

    /** Refuses {@code root} when it nests deeper than {@link #MAX_DEPTH} or contains itself. */
    static void check(Object root, String file) {
        IdentityHashMap<Object, Boolean> state = new IdentityHashMap<>();   // true: on the path; false: done
        List<Object> path = new ArrayList<>();
        List<Iterator<?>> next = new ArrayList<>();
        if (!isContainer(root)) return;
        path.add(root);
        next.add(children(root));
        state.put(root, true);
        while (!path.isEmpty()) {
            Iterator<?> it = next.get(next.size() - 1);
            if (!it.hasNext()) {
                state.put(path.remove(path.size() - 1), false);
                next.remove(next.size() - 1);
                continue;
            }
            Object child = it.next();
            if (!isContainer(child)) continue;
            Boolean s = state.get(child);
            if (s == null) {
                if (path.size() >= MAX_DEPTH) {
                    throw new TraceException(file, 0, "not a memory snapshot: it nests more than " + MAX_DEPTH
                            + " levels deep (a snapshot nests about 7: dict, segments, blocks, frames)");
                }
                path.add(child);
                next.add(children(child));
                state.put(child, true);
            } else if (s) {
                throw new TraceException(file, 0, "not a memory snapshot: " + describe(child)
                        + " contains itself (a pickle can write that; a snapshot never does)");
            }
        }
    }

    private static boolean isContainer(Object o) {
        return o instanceof Map<?, ?> || o instanceof List<?> || o instanceof Object[];
    }

    private static Iterator<?> children(Object o) {
        if (o instanceof List<?> l) return l.iterator();
        if (o instanceof Object[] a) return Arrays.asList(a).iterator();
        Map<?, ?> m = (Map<?, ?>) o;
        List<Object> both = new ArrayList<>(2 * m.size());
        for (Map.Entry<?, ?> e : m.entrySet()) {
            both.add(e.getKey());
            both.add(e.getValue());
        }
        return both.iterator();
    }

    /** What {@code v} is, in a few words: {@code a dict of 3 keys}, {@code the string 'abc'}, {@code nothing}. */
    static String describe(Object v) {
        if (v == null) return "None";
        if (v instanceof Map<?, ?> m) return "a dict of " + m.size() + (m.size() == 1 ? " key" : " keys");
        if (v instanceof List<?> l) return "a list of " + l.size() + (l.size() == 1 ? " item" : " items");
        if (v instanceof Object[] a) return "a tuple of " + a.length + (a.length == 1 ? " item" : " items");
        if (v instanceof String s) return "the string '" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "'";
        if (v instanceof Boolean b) return b ? "True" : "False";
        if (v instanceof Integer || v instanceof Long || v instanceof BigInteger) {
            String t = v.toString();
            return "the integer " + (t.length() > 40 ? t.substring(0, 40) + "..." : t);
        }
        if (v instanceof Double || v instanceof Float) return "the float " + v;
        if (v instanceof byte[] b) return "bytes of length " + b.length;
        return "a value of another kind";
    }
}
