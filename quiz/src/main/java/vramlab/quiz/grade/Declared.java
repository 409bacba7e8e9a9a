package vramlab.quiz.grade;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import vramlab.quiz.Question;
import vramlab.quiz.ScoreRow;
import vramlab.quiz.Variant;

/**
 * What the kit declares it grades, read without JUnit: every {@code @Graded} lab test method in
 * the compiled test folders (by reading their class files' annotations; no test class is
 * initialised) and every registered quiz question's points. A report checks its rows against
 * this before it prints a score, so a filtered run, a module whose tests were not discovered or
 * a row from somewhere else cannot pass for the kit's total.
 *
 * @param labItems the graded lab test methods, by test folder, in folder order
 */
public record Declared(Map<Path, List<Item>> labItems) {

    /** One graded lab test: its class, method, step and points. */
    public record Item(String className, String method, String step, int points) {}

    /** Reads the graded lab tests of {@code kit}'s test folders. */
    public static Declared scan(Kit kit) {
        List<URL> urls = new ArrayList<>();
        for (Path p : kit.testRoots()) urls.add(url(p));
        for (Path p : kit.runtime()) urls.add(url(p));
        urls.add(url(kit.referenceCore()));
        Map<Path, List<Item>> out = new LinkedHashMap<>();
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), Declared.class.getClassLoader())) {
            for (Path root : kit.testRoots()) out.put(root, itemsIn(root, loader));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Declared(out);
    }

    private static List<Item> itemsIn(Path root, ClassLoader loader) throws IOException {
        List<Item> items = new ArrayList<>();
        List<Path> classes;
        try (Stream<Path> s = Files.walk(root)) {
            classes = s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
        for (Path f : classes) {
            String rel = root.relativize(f).toString().replace('\\', '/');
            if (rel.endsWith("module-info.class") || rel.endsWith("package-info.class")) continue;
            String name = rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
            Class<?> c;
            try {
                c = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new IllegalStateException("cannot read the graded tests of " + name + " in " + root + ": " + e, e);
            }
            if (!runsAsTestClass(c)) continue;
            Set<String> seen = new HashSet<>();
            for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                for (Method m : k.getDeclaredMethods()) {
                    Annotation g = graded(m);
                    if (g == null || !seen.add(m.getName() + java.util.Arrays.toString(m.getParameterTypes()))) continue;
                    items.add(new Item(c.getName(), m.getName(), (String) value(g, "step"), (Integer) value(g, "points")));
                }
            }
        }
        return items;
    }

    /** A class JUnit Jupiter runs: concrete, and top-level, static nested, or an inner class marked {@code @Nested}. */
    static boolean runsAsTestClass(Class<?> c) {
        int mod = c.getModifiers();
        if (Modifier.isAbstract(mod) || c.isInterface() || c.isAnonymousClass() || c.isLocalClass()
                || Modifier.isPrivate(mod)) {
            return false;
        }
        if (c.getEnclosingClass() == null || Modifier.isStatic(mod)) return true;
        boolean nested = false;
        for (Annotation a : c.getDeclaredAnnotations()) {
            if (a.annotationType().getName().equals("org.junit.jupiter.api.Nested")) nested = true;
        }
        return nested && runsAsTestClass(c.getEnclosingClass());
    }

    private static Annotation graded(Method m) {
        for (Annotation a : m.getDeclaredAnnotations()) {
            if (a.annotationType().getName().equals("vramlab.quiz.Graded")) return a;
        }
        return null;
    }

    private static Object value(Annotation a, String name) {
        try {
            return a.annotationType().getMethod(name).invoke(a);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("@Graded has no " + name + "()", e);
        }
    }

    private static URL url(Path p) {
        try {
            return p.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(p.toString(), e);
        }
    }

    /** The lab items' points in all. */
    public int labTotal() { return labItems.values().stream().flatMap(List::stream).mapToInt(Item::points).sum(); }

    /** The declared lab items that are quiz questions' tests ({@code q3.1}) are not lab items. */
    public Declared withoutQuizTests() {
        Map<Path, List<Item>> out = new LinkedHashMap<>();
        labItems.forEach((root, items) -> out.put(root, items.stream().filter(i -> !i.step().startsWith("q")).toList()));
        return new Declared(out);
    }

    /** The declared points of {@code questions} for variant {@code v} of each chapter. */
    public static int quizTotal(List<Question> questions, String student, vramlab.quiz.Salt salt) {
        int sum = 0;
        for (Question q : questions) sum += q.points(Variant.of(q.chapter(), student, salt));
        return sum;
    }

    /**
     * What is wrong with one submission's rows against this declaration: a test folder that
     * declares graded tests but has no rows, a count or a total that differs. Empty when they agree.
     *
     * @param labRowsByRoot the rows of the lab items, by the test folder their class is in
     * @param quizRows      the rows of the quiz items
     * @param quizDeclared  the registered questions' points for this student
     */
    public List<String> problems(Map<Path, List<ScoreRow>> labRowsByRoot, List<ScoreRow> quizRows, int quizDeclared) {
        List<String> out = new ArrayList<>();
        Declared lab = withoutQuizTests();
        for (Map.Entry<Path, List<Item>> e : lab.labItems.entrySet()) {
            List<ScoreRow> rows = labRowsByRoot.getOrDefault(e.getKey(), List.of());
            int declared = e.getValue().stream().mapToInt(Item::points).sum();
            int got = rows.stream().mapToInt(ScoreRow::points).sum();
            if (!e.getValue().isEmpty() && rows.isEmpty()) {
                out.add(e.getKey() + " declares " + e.getValue().size() + " graded tests (" + declared
                        + " points) but this run has no rows for it");
            } else if (rows.size() != e.getValue().size() || got != declared) {
                out.add(e.getKey() + " declares " + e.getValue().size() + " graded tests worth " + declared
                        + " points; this run has " + rows.size() + " rows worth " + got);
            }
        }
        for (Path extra : labRowsByRoot.keySet()) {
            if (!lab.labItems.containsKey(extra)) out.add("rows for " + extra + ", which is not one of the kit's test folders");
        }
        int quiz = quizRows.stream().mapToInt(ScoreRow::points).sum();
        if (quiz != quizDeclared) {
            out.add("the registered quiz questions are worth " + quizDeclared + " points; this run's quiz rows " + quiz);
        }
        return out;
    }
}
