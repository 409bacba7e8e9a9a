package vramlab.cli;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import jdk.jshell.execution.LocalExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * JShell's local execution (snippets run in JShell's own JVM), showing a {@code long} value
 * with its hex or units ({@link JshellValues}): {@code va ==> 139680926400512 (0x7f0a00000000)}.
 * Both {@code ./vramlab jshell} modes use it: piped snippets ({@link SnippetRunner}) and the real
 * JShell at a terminal ({@code jshell --execution vramlab}, found through
 * {@code META-INF/services}). JShell wraps each snippet in a class whose one field is the
 * snippet's variable (its {@code $N} for an expression), so that field's type says whether the
 * value is a {@code long}; a snippet that names an earlier variable alone ({@code va}) has no
 * field, and the variable's type is read from the wrapper's class file.
 */
public final class JshellLongs implements ExecutionControlProvider {
    /** The name {@code --execution} selects. */
    public static final String NAME = "vramlab";

    @Override
    public String name() { return NAME; }

    /** The thread waiting for a snippet now, or null: a System.exit the snippet calls is said by {@link #exiting}. */
    private static volatile Thread running;

    private static boolean hooked;

    @Override
    public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
        hookOnce();
        return new LocalExecutionControl() {
            @Override
            protected String invoke(Method doit) throws Exception {
                running = Thread.currentThread();
                try {
                    return JshellValues.show(typeOf(doit.getDeclaringClass()), super.invoke(doit));
                } finally {
                    running = null;
                }
            }
        };
    }

    private static synchronized void hookOnce() {
        if (hooked) return;
        Runtime.getRuntime().addShutdownHook(new Thread(JshellLongs::exiting, "vramlab-jshell-exit"));
        hooked = true;
    }

    /**
     * A shutdown hook: snippets run in JShell's own JVM, so one whose code calls {@code
     * System.exit} ends JShell, with no word from JShell; this says so, and where, on standard
     * error.
     */
    private static void exiting() {
        if (running == null) return;
        // JShell's local execution runs each snippet on a thread of its own, which invoke waits for:
        // the caller of System.exit is the thread with it on its stack
        StackTraceElement[] stack = null;
        for (StackTraceElement[] s : Thread.getAllStackTraces().values()) {
            if (vramlab.kit.Scenario.callsExit(s)) stack = s;
        }
        if (stack == null) return;
        System.out.flush();
        java.io.PrintStream err = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true,
                java.nio.charset.StandardCharsets.UTF_8);
        err.println(exitLine(stack));
        err.flush();
        // Piped snippets end with status 1, as a failed run; at a terminal the shutdown goes on, so
        // that JShell's own hooks put the terminal back as it was.
        if (System.console() == null) Runtime.getRuntime().halt(1);
    }

    /** What a snippet that called System.exit says: where, as a lab says it. */
    static String exitLine(StackTraceElement[] stack) {
        String where;
        try {
            where = LabCommand.where(vramlab.quiz.feedback.StepPlaces.read(StudentCores.root()).values(), stack);
        } catch (RuntimeException e) {
            where = vramlab.kit.Scenario.firstCoreFrame(stack);     // no kit found to read the steps from
        }
        return "vramlab: jshell: System.exit was called" + where + "; it ends JShell, and the session with it";
    }

    /**
     * The type of the snippet's one variable; for a snippet that names an earlier variable alone
     * ({@code va}, which JShell evaluates with no field of its own), that variable's type;
     * else "".
     */
    static String typeOf(Class<?> wrapper) {
        Field[] fields = wrapper.getDeclaredFields();
        if (fields.length == 1) return fields[0].getType().getName();
        return fields.length == 0 ? readVariableType(wrapper) : "";
    }

    /**
     * The type of the earlier snippets' variables that {@code wrapper}'s code reads, from its class
     * file's constant pool: the descriptor of its field references into JShell's package
     * {@code REPL} when they all have one, and it is {@code long} or {@code Long}; else "" (none,
     * several types, or a class file that cannot be read).
     */
    static String readVariableType(Class<?> wrapper) {
        ClassLoader loader = wrapper.getClassLoader();
        if (loader == null) return "";
        try (InputStream in = loader.getResourceAsStream(wrapper.getName().replace('.', '/') + ".class")) {
            if (in == null) return "";
            DataInputStream d = new DataInputStream(new ByteArrayInputStream(in.readAllBytes()));
            d.skipBytes(8);                                  // magic, minor, major
            int count = d.readUnsignedShort();
            String[] utf8 = new String[count];
            int[][] refs = new int[count][];                 // Class -> {name}, NameAndType -> {name, type}, Fieldref -> {class, nat}
            int[] tags = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = d.readUnsignedByte();
                tags[i] = tag;
                switch (tag) {
                    case 1 -> utf8[i] = d.readUTF();
                    case 7 -> refs[i] = new int[] {d.readUnsignedShort()};
                    case 9, 12 -> refs[i] = new int[] {d.readUnsignedShort(), d.readUnsignedShort()};
                    case 8, 16, 19, 20 -> d.skipBytes(2);
                    case 15 -> d.skipBytes(3);
                    case 3, 4, 10, 11, 17, 18 -> d.skipBytes(4);
                    case 5, 6 -> { d.skipBytes(8); i++; }
                    default -> { return ""; }
                }
            }
            Set<String> types = new HashSet<>();
            for (int i = 1; i < count; i++) {
                if (tags[i] != 9) continue;
                String owner = utf8[refs[refs[i][0]][0]];
                if (owner == null || !owner.startsWith("REPL/")) continue;
                types.add(utf8[refs[refs[i][1]][1]]);
            }
            if (types.size() != 1) return "";
            return switch (types.iterator().next()) {
                case "J" -> "long";
                case "Ljava/lang/Long;" -> "java.lang.Long";
                default -> "";
            };
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
