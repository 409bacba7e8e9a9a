package vramlab.quiz.grade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A reading of a submission's sources for what no lab step needs and a submission could use to
 * reach around the grader: reflection, {@code Unsafe}, the harness's own packages, starting
 * processes, leaving the JVM, setting system properties, writing files. A use is reported when
 * the student's file has more of it than the reference's file of the same name (so what the kit
 * itself ships is never reported), as a flag for the instructor to read the code: it costs no
 * points by itself. The grader never trusts what a test JVM says anyway (see {@link ChildRunner});
 * this names the submissions that tried.
 */
final class CodeScan {
    /** What is looked for, by the name a flag gives it. */
    static final Map<String, Pattern> LOOKS = new LinkedHashMap<>();
    static {
        LOOKS.put("reflection", Pattern.compile("\\bjava\\.lang\\.reflect\\b|\\bsetAccessible\\s*\\(|\\bgetDeclared"
                + "(Field|Method|Constructor)s?\\s*\\(|\\bClass\\.forName\\s*\\(|\\bMethodHandles\\b|\\bgetConstructor\\s*\\("));
        LOOKS.put("Unsafe or JDK internals", Pattern.compile("\\bsun\\.misc\\b|\\bjdk\\.internal\\b|\\bUnsafe\\b"));
        LOOKS.put("the grading harness", Pattern.compile("\\bvramlab\\.quiz\\b|\\bPartialCredit\\b|\\bScoreRow\\b"));
        LOOKS.put("a process", Pattern.compile("\\bProcessBuilder\\b|\\.exec\\s*\\(|\\bProcessHandle\\b"));
        LOOKS.put("System.exit or halt", Pattern.compile("\\bSystem\\s*\\.\\s*exit\\s*\\(|\\.halt\\s*\\("));
        LOOKS.put("system properties", Pattern.compile("\\bSystem\\s*\\.\\s*(setProperty|setProperties|clearProperty)\\s*\\("));
        LOOKS.put("file writes", Pattern.compile("\\bFileOutputStream\\b|\\bFileWriter\\b|\\bRandomAccessFile\\b|"
                + "\\bFiles\\s*\\.\\s*(write|writeString|newOutputStream|newBufferedWriter|copy|move|delete|createFile)\\s*\\("
                + "|\\bFileDescriptor\\b|\\bPrintWriter\\s*\\(\\s*\"|\\bnew\\s+File\\s*\\("));
        LOOKS.put("the network", Pattern.compile("\\bjava\\.net\\b|\\bSocket\\b|\\bHttpClient\\b"));
    }

    private CodeScan() {}

    /**
     * One line per file and kind of use, {@code vramlab/alloc/ToyPolicy.java: System.exit or halt},
     * for the student's sources under {@code sources} against {@code reference} (may be null).
     */
    static List<String> review(Path sources, Path reference) throws IOException {
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(sources)) return out;
        List<Path> files;
        try (Stream<Path> s = Files.walk(sources)) {
            files = s.filter(p -> p.toString().endsWith(".java")).filter(Files::isRegularFile).sorted().toList();
        }
        for (Path f : files) {
            String rel = sources.relativize(f).toString().replace('\\', '/');
            String mine = withoutComments(Files.readString(f, StandardCharsets.UTF_8));
            Path ref = reference == null ? null : reference.resolve(rel);
            String theirs = ref != null && Files.isRegularFile(ref)
                    ? withoutComments(Files.readString(ref, StandardCharsets.UTF_8)) : "";
            List<String> kinds = new ArrayList<>();
            LOOKS.forEach((kind, p) -> { if (count(p, mine) > count(p, theirs)) kinds.add(kind); });
            if (!kinds.isEmpty()) out.add(rel + " uses " + String.join(", ", kinds));
        }
        return out;
    }

    private static int count(Pattern p, String text) {
        int n = 0;
        for (Matcher m = p.matcher(text); m.find(); ) n++;
        return n;
    }

    /** The text without its comments, so a Javadoc that names a class is not a use of it. */
    static String withoutComments(String s) {
        return s.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
    }
}
