package vramlab.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import vramlab.kit.ChapterLab;

/**
 * What the site build generates for a chapter's notes, written for a release that reads its
 * notes without the site ({@link ReleaseNotes}), by the site's own rules
 * ({@code vramlab.site.FigureRegistry}, which the launcher cannot use: the site module depends on
 * it): among the top-level classes of the chapter lab's package, every public static
 * no-argument method returning a String named {@code exampleN_M} is step N.M's worked example
 * ({@code step-N.M.adoc}), {@code outputXxxYyy} an output ({@code output-xxx-yyy.txt}) and
 * {@code figureXxxYyy} a figure ({@code xxx-yyy.svg} and {@code chNN-xxx-yyy.svg}); and the lab's
 * run is {@code lab-output.txt} and {@code chNN-slug.txt}. All are drawn from the cores this
 * process runs on: the reference, in the instructor's copy that writes a release.
 */
final class NotesGenerated {
    private NotesGenerated() {}

    /** Writes {@code lab}'s generated files into {@code generated} and its figures into {@code figures}. */
    static void write(ChapterLab lab, Path generated, Path figures) throws IOException {
        Files.createDirectories(generated);
        Files.createDirectories(figures);
        String prefix = lab.id().substring(0, 4) + "-";
        for (Class<?> c : classesOf(lab.getClass())) {
            for (Map.Entry<String, Method> e : methods(c).entrySet()) {
                String name = e.getKey();
                String text = run(e.getValue());
                if (name.endsWith(".svg")) {
                    Files.writeString(figures.resolve(name), text, StandardCharsets.UTF_8);
                    Files.writeString(figures.resolve(prefix + name), text, StandardCharsets.UTF_8);
                } else {
                    Files.writeString(generated.resolve(name), text, StandardCharsets.UTF_8);
                }
            }
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            lab.run(ps);
        }
        String run = buf.toString(StandardCharsets.UTF_8);
        Files.writeString(generated.resolve("lab-output.txt"), run, StandardCharsets.UTF_8);
        Files.writeString(generated.resolve(lab.id() + ".txt"), run, StandardCharsets.UTF_8);
        Files.writeString(generated.resolve("playground.adoc"), "NOTE: This chapter's playground (the lab in the"
                + " browser) is in the rendered notes; here, run the lab on your own cores: `./vramlab lab " + lab.id()
                + "`.\n", StandardCharsets.UTF_8);
    }

    /** One class's generated files by name: {@code step-N.M.adoc}, {@code output-x.txt}, {@code x.svg}. */
    static Map<String, Method> methods(Class<?> c) {
        Map<String, Method> out = new TreeMap<>();
        for (Method m : c.getDeclaredMethods()) {
            int mod = m.getModifiers();
            if (!Modifier.isPublic(mod) || !Modifier.isStatic(mod) || m.getParameterCount() != 0
                    || m.getReturnType() != String.class) continue;
            String name = m.getName();
            if (name.matches("example\\d+_\\d+")) {
                out.put("step-" + name.substring("example".length()).replace('_', '.') + ".adoc", m);
            } else if (name.matches("output[A-Z].*")) {
                out.put("output-" + kebab(name.substring("output".length())) + ".txt", m);
            } else if (name.matches("figure[A-Z].*")) {
                out.put(kebab(name.substring("figure".length())) + ".svg", m);
            }
        }
        return out;
    }

    /** {@code FreeKeepsPages} to {@code free-keeps-pages}, as the site names the files. */
    static String kebab(String rest) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rest.length(); i++) {
            char ch = rest.charAt(i);
            if (Character.isUpperCase(ch) && i > 0) sb.append('-');
            sb.append(Character.toLowerCase(ch));
        }
        return sb.toString();
    }

    /** The top-level classes of {@code anchor}'s package, in every class folder or jar that has it. */
    static List<Class<?>> classesOf(Class<?> anchor) throws IOException {
        String pkg = anchor.getPackageName();
        String dir = pkg.replace('.', '/');
        TreeSet<String> names = new TreeSet<>();
        Enumeration<URL> roots = anchor.getClassLoader().getResources(dir);
        while (roots.hasMoreElements()) {
            URL root = roots.nextElement();
            if (root.getProtocol().equals("file")) {
                try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
                    files.map(p -> p.getFileName().toString()).forEach(f -> addIfTopLevel(names, f));
                } catch (URISyntaxException e) {
                    throw new IOException(root + ": " + e.getMessage(), e);
                }
            } else if (root.getProtocol().equals("jar")) {
                JarURLConnection c = (JarURLConnection) root.openConnection();
                c.setUseCaches(false);
                try (JarFile jar = c.getJarFile()) {
                    jar.stream().map(e -> e.getName())
                            .filter(n -> n.startsWith(dir + "/") && n.indexOf('/', dir.length() + 1) < 0)
                            .forEach(n -> addIfTopLevel(names, n.substring(dir.length() + 1)));
                }
            }
        }
        List<Class<?>> out = new ArrayList<>();
        for (String n : names) {
            try {
                out.add(Class.forName(pkg + "." + n, false, anchor.getClassLoader()));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("listed but not loadable: " + pkg + "." + n, e);
            }
        }
        return out;
    }

    private static void addIfTopLevel(TreeSet<String> out, String file) {
        if (file.endsWith(".class") && !file.contains("$") && !file.equals("package-info.class")) {
            out.add(file.substring(0, file.length() - ".class".length()));
        }
    }

    private static String run(Method m) {
        try {
            Object text = m.invoke(null);
            if (text == null) throw new IllegalStateException(m.getDeclaringClass().getName() + "." + m.getName()
                    + "() returned null");
            return (String) text;
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(m.getDeclaringClass().getName() + "." + m.getName() + "() failed: "
                    + e.getCause(), e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(m + " is not accessible", e);
        }
    }
}
