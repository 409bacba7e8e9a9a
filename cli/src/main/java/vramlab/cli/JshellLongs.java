package vramlab.cli;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;

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
 * value is a {@code long}.
 */
public final class JshellLongs implements ExecutionControlProvider {
    /** The name {@code --execution} selects. */
    public static final String NAME = "vramlab";

    @Override
    public String name() { return NAME; }

    @Override
    public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
        return new LocalExecutionControl() {
            @Override
            protected String invoke(Method doit) throws Exception {
                return JshellValues.show(typeOf(doit.getDeclaringClass()), super.invoke(doit));
            }
        };
    }

    /** The type of the snippet's one variable, or "" when its wrapper holds none or several. */
    static String typeOf(Class<?> wrapper) {
        Field[] fields = wrapper.getDeclaredFields();
        return fields.length == 1 ? fields[0].getType().getName() : "";
    }
}
