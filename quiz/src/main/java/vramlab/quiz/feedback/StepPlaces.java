package vramlab.quiz.feedback;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;

/**
 * Where each lab step is written: the class and method its marker (in {@code solutions/}) or its
 * Todo (in a release's {@code cores/}) sits in, and the section of the notes it names. The step
 * ends its method's body, so the method is the nearest declaration above the marker, at a
 * smaller indent than the marker's.
 *
 * <p>Read from the kit's sources once per JVM, so that a failure can point at the student's own
 * line ({@link #studentsFrame}) rather than at the kit's code that noticed the problem.
 */
public final class StepPlaces {
    /** Step {@code step}, written in {@code method} of {@code className}, taught in {@code section}. */
    public record Place(String step, String className, String method, String section) {
        /** True when {@code frame} runs this step's method (or a lambda inside it). */
        public boolean runs(StackTraceElement frame) {
            return inClass(frame) && (frame.getMethodName().equals(method)
                    || frame.getMethodName().startsWith("lambda$" + method + "$"));
        }

        /** True when {@code frame} is in this step's class (or a class nested in it). */
        public boolean inClass(StackTraceElement frame) {
            String c = frame.getClassName();
            return c.equals(className) || c.startsWith(className + "$");
        }

        /** {@code BuddyAllocator.orderFor}. */
        public String simpleName() { return className.substring(className.lastIndexOf('.') + 1) + "." + method; }
    }

    private static final Pattern DECLARATION = Pattern.compile(
            "^(\\s*)(?:(?:public|protected|private|static|final|synchronized|abstract|default)\\s+)*"
            + "(?:<[^>]*>\\s+)?(?:[\\w.$]+(?:<.*>)?(?:\\[\\])*\\s+)?(\\w+)\\s*\\([^=;]*$");
    private static final Set<String> NOT_A_NAME = Set.of("if", "for", "while", "switch", "catch", "return", "new",
            "throw", "synchronized", "try", "else", "do");

    private static volatile Map<String, Place> cached;

    private StepPlaces() {}

    /** The place of {@code step} in the kit that holds {@code testClass}; empty when the kit's sources are not found. */
    public static Optional<Place> of(String step, Class<?> testClass) {
        Map<String, Place> m = cached;
        if (m == null) {
            m = rootOf(testClass).map(StepPlaces::read).orElse(Map.of());
            cached = m;
        }
        return Optional.ofNullable(m.get(step));
    }

    /** Every step of the kit at {@code root}: from {@code solutions/}, or in a release from {@code cores/}. */
    public static Map<String, Place> read(Path root) {
        Path module = Files.isDirectory(root.resolve("solutions/src/main/java")) ? root.resolve("solutions")
                : root.resolve("cores");
        if (!Files.isDirectory(module.resolve("src/main/java"))) return Map.of();
        List<LabGenerator.Step> steps = module.endsWith("solutions") ? LabGenerator.steps(module)
                : LabGenerator.stepsFromStubs(module);
        Map<String, Place> out = new HashMap<>();
        for (LabGenerator.Step s : steps) {
            String rel = s.file().substring(s.file().indexOf("src/main/java/") + "src/main/java/".length());
            String className = rel.substring(0, rel.length() - ".java".length()).replace('/', '.');
            try {
                List<String> lines = Files.readAllLines(module.resolve("src/main/java").resolve(rel), StandardCharsets.UTF_8);
                String method = methodAbove(lines, s.line() - 1);
                if (method != null) out.put(s.id(), new Place(s.id(), className, method, s.notes()));
            } catch (IOException e) {
                // a step whose file cannot be read has no place: its failures name the first frame in the cores
            }
        }
        return Map.copyOf(out);
    }

    /**
     * The method declared nearest above line {@code at} (0-based) at a smaller indent; a
     * constructor is {@code <init>}, as stack frames name it.
     */
    public static String methodAbove(List<String> lines, int at) {
        int i = declarationAbove(lines, at);
        if (i < 0) return null;
        String name = declaredName(lines.get(i));
        String className = null;
        for (int j = i - 1; j >= 0 && className == null; j--) {
            Matcher c = Pattern.compile("\\b(?:class|record|enum)\\s+(\\w+)").matcher(lines.get(j));
            if (c.find()) className = c.group(1);
        }
        return name.equals(className) ? "<init>" : name;
    }

    /** The index (0-based) of the declaration {@link #methodAbove} finds, or -1 when there is none. */
    static int declarationAbove(List<String> lines, int at) {
        int indent = indentOf(lines.get(at));
        for (int i = at - 1; i >= 0; i--) {
            Matcher m = DECLARATION.matcher(lines.get(i));
            if (m.find() && m.group(1).length() < indent && !NOT_A_NAME.contains(m.group(2))) return i;
        }
        return -1;
    }

    /** The name a line declares ({@code roundSize}, a constructor's class name), or null when it declares none. */
    static String declaredName(String line) {
        int open = line.indexOf('(');               // the pattern's own test, first and cheaply: a '(' and no = or ; after it
        if (open < 0 || line.indexOf('=', open) >= 0 || line.indexOf(';', open) >= 0) return null;
        Matcher m = DECLARATION.matcher(line);
        return m.find() && !NOT_A_NAME.contains(m.group(2)) ? m.group(2) : null;
    }

    /**
     * The line (1-based) where a copy of a step's file declares the step's method: the file as
     * the student has it now, lines added or removed anywhere, the declaration reformatted.
     * {@code reference} is the file the step was read from (its marker, or in a release its Todo,
     * at {@code stepLine}, 1-based). Looked for, in order: the method around the step's Todo when
     * it is still there; a declaration of that name with the reference's parameter types (its
     * parameter list read across lines, {@link Declarations}); one with as many parameters; any
     * declaration of that name. Comments and strings that name it are not declarations. Where the
     * copy has as many such declarations as the reference (overloads), the one in the same place
     * among them; else the one nearest the reference's line. Empty when the copy declares no
     * method of that name (the student renamed it), or the reference's step has no method above it.
     */
    public static java.util.OptionalInt methodLine(List<String> copy, String step, List<String> reference, int stepLine) {
        int declared = stepLine < 1 || stepLine > reference.size() ? -1 : declarationAbove(reference, stepLine - 1);
        if (declared < 0) return java.util.OptionalInt.empty();
        String name = declaredName(reference.get(declared));
        List<String> code = Declarations.code(copy);
        String todo = "new vramlab.lab.Todo(\"" + step + "\"";
        for (int i = 0; i < copy.size(); i++) {
            if (!copy.get(i).contains(todo) || !code.get(i).contains("new vramlab.lab.Todo(")) continue;  // not in a comment
            int d = declarationAbove(code, i);
            if (d >= 0 && name.equals(declaredName(code.get(d)))) return java.util.OptionalInt.of(d + 1);
        }
        List<Declarations.Declaration> mine = named(Declarations.inCode(code), name);
        List<Declarations.Declaration> theirs = named(Declarations.of(reference), name);
        Declarations.Declaration own = theirs.stream().filter(t -> t.index() == declared).findFirst().orElse(null);
        List<java.util.function.Predicate<Declarations.Declaration>> ways = own == null || own.types() == null
                ? List.of(x -> true)
                : List.of(x -> own.types().equals(x.types()),
                          x -> x.types() != null && x.types().size() == own.types().size(), x -> true);
        for (java.util.function.Predicate<Declarations.Declaration> same : ways) {
            List<Integer> m = mine.stream().filter(same).map(Declarations.Declaration::index).toList();
            List<Integer> t = theirs.stream().filter(same).map(Declarations.Declaration::index).toList();
            if (m.isEmpty()) continue;
            if (m.size() == t.size() && t.contains(declared)) return java.util.OptionalInt.of(m.get(t.indexOf(declared)) + 1);
            int best = m.get(0);
            for (int i : m) if (Math.abs(i - declared) < Math.abs(best - declared)) best = i;
            return java.util.OptionalInt.of(best + 1);
        }
        return java.util.OptionalInt.empty();
    }

    /** The declarations of {@code name} among {@code all}. */
    private static List<Declarations.Declaration> named(List<Declarations.Declaration> all, String name) {
        return all.stream().filter(d -> d.name().equals(name)).toList();
    }

    private static int indentOf(String line) {
        int n = 0;
        while (n < line.length() && Character.isWhitespace(line.charAt(n))) n++;
        return n;
    }

    /** A step's method found on a stack: the step's place, and the frame that runs it (the student's own line). */
    public record Running(Place place, StackTraceElement frame) {
        /** {@code ToyPolicy.java:38}: the student's line. */
        public String line() { return at(frame); }

        /** {@code ToyPolicy.roundSize (step 3.1)}: the step's method, and the step. */
        public String method() { return place.simpleName() + " (step " + place.step() + ")"; }
    }

    /**
     * The first frame of {@code stack} (the one nearest the throw) that runs the method of one of
     * {@code places}, with that place. Empty when no such method is on the stack. The one search
     * behind every "your line": a failed or timed-out graded test ({@link StepOrder}) and a lab
     * scenario stopped at its limit (the launcher's {@code lab}).
     */
    public static Optional<Running> running(Collection<Place> places, StackTraceElement[] stack) {
        for (StackTraceElement f : stack) {
            for (Place p : places) if (p.runs(f)) return Optional.of(new Running(p, f));
        }
        return Optional.empty();
    }

    /** {@link #running} for one step, on the stack of {@code thrown}: the student's own frame. */
    public static Optional<StackTraceElement> studentsFrame(Throwable thrown, Place place) {
        return running(List.of(place), thrown.getStackTrace()).map(Running::frame);
    }

    /** {@code ToyPolicy.java:38}: a frame's file and line, the class's simple name when the file is not known. */
    public static String at(StackTraceElement f) {
        String c = f.getClassName();
        return (f.getFileName() == null ? c.substring(c.lastIndexOf('.') + 1) : f.getFileName()) + ":" + f.getLineNumber();
    }

    /** {@code -Dvramlab.home}, the working folder's kit, else the kit above the test's compiled classes. */
    static Optional<Path> rootOf(Class<?> testClass) {
        try {
            return Optional.of(KitPaths.root());
        } catch (IllegalStateException e) {
            // the grader's test JVM works in a scratch folder: look above the test's classes
        }
        try {
            Path p = Path.of(testClass.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (; p != null; p = p.getParent()) {
                if (Files.isDirectory(p.resolve("labs")) && (Files.isDirectory(p.resolve("solutions"))
                        || Files.isRegularFile(p.resolve(KitPaths.RELEASE_MARKER)))) {
                    return Optional.of(p);
                }
            }
        } catch (URISyntaxException | RuntimeException e) {
            // no code source (a class defined at run time): no kit to read
        }
        return Optional.empty();
    }
}
