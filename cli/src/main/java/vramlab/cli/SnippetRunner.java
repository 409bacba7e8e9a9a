package vramlab.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import jdk.jshell.Diag;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;

/**
 * Runs JShell snippets read from a pipe, in this JVM, and prints what an interactive session
 * shows: each value as {@code name ==> value} (a {@code long} with its hex or units,
 * {@link JshellLongs}), exceptions, and compile errors as {@code error: <stdin>:LINE: ...}.
 */
final class SnippetRunner {
    private final String classpath;
    private final Io io;
    /** Set by {@code /exit}: the rest of the input, and of any file being opened, is not read. */
    private boolean exited;

    SnippetRunner(String classpath, Io io) {
        this.classpath = classpath;
        this.io = io;
    }

    /** Evaluates the startup, then the input; returns 2 if any input snippet did not compile. */
    int run(String startup, String input) {
        // Snippets run in this JVM: what they print goes where this command's output goes.
        java.io.PrintStream out = System.out, err = System.err;
        System.setOut(io.out());
        System.setErr(io.err());
        try (JShell js = JShell.builder().executionEngine(new JshellLongs(), java.util.Map.of()).out(io.out()).err(io.err()).build()) {
            for (String entry : classpath.split(File.pathSeparator)) js.addToClasspath(entry);
            if (evalAll(js, startup, "<startup>", false) > 0) return 1;
            return evalAll(js, input, vramlab.trace.TraceReader.STANDARD_INPUT, true) > 0 ? 2 : 0;
        } finally {
            io.out().flush();
            System.setOut(out);
            System.setErr(err);
        }
    }

    /**
     * Reads as interactive JShell does: line by line, evaluating as soon as the lines so far
     * make complete snippets.
     */
    private int evalAll(JShell js, String text, String where, boolean show) {
        SourceCodeAnalysis analysis = js.sourceCodeAnalysis();
        int errors = 0;
        StringBuilder pending = new StringBuilder();
        int pendingLine = 1;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length && !exited; i++) {
            if (pending.length() == 0 && isExit(lines[i])) {
                exited = true;
                break;
            }
            if (pending.length() == 0 && isCommand(lines[i])) {
                errors += command(js, lines[i].strip(), where, i + 1, show);
                continue;
            }
            if (pending.length() == 0) pendingLine = i + 1;
            pending.append(lines[i]).append('\n');
            SourceCodeAnalysis.Completeness c = analysis.analyzeCompletion(pending.toString()).completeness();
            boolean last = i == lines.length - 1;
            if (c == SourceCodeAnalysis.Completeness.EMPTY) {
                pending.setLength(0);
            } else if (c.isComplete() || c == SourceCodeAnalysis.Completeness.UNKNOWN || last) {
                errors += evalPending(js, analysis, pending.toString(), where, pendingLine, show);
                pending.setLength(0);
            }
        }
        return errors;
    }

    /** A JShell command such as {@code /open FILE} (not a comment). */
    private static boolean isCommand(String line) {
        String t = line.strip();
        return t.startsWith("/") && !t.startsWith("//") && !t.startsWith("/*");
    }

    /** {@code /exit} (with or without a status) ends the session, as it does at a terminal. */
    private static boolean isExit(String line) {
        String t = line.strip();
        return t.equals("/exit") || t.startsWith("/exit ");
    }

    /** {@code /open FILE} runs the file's snippets as JShell does; other commands need a terminal. */
    private int command(JShell js, String line, String where, int lineNo, boolean show) {
        if (line.startsWith("/open ")) {
            Path file = Path.of(line.substring("/open ".length()).strip());
            try {
                return evalAll(js, Files.readString(file, StandardCharsets.UTF_8), file.toString(), show);
            } catch (IOException e) {
                io.err().println("error: " + where + ":" + lineNo + ": /open: cannot read " + file + " (" + e + ")");
                return 1;
            }
        }
        io.err().println("error: " + where + ":" + lineNo + ": " + line.split("\\s+")[0]
                + " needs an interactive JShell (at a terminal); piped input runs snippets and /open FILE only");
        return 1;
    }

    private int evalPending(JShell js, SourceCodeAnalysis analysis, String text, String where, int line,
                            boolean show) {
        int errors = 0;
        String rest = text;
        while (!rest.isBlank()) {
            SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(rest);
            boolean complete = info.completeness().isComplete();
            String source = complete ? info.source() : rest;
            for (SnippetEvent e : js.eval(source)) errors += report(js, e, where, line, show);
            io.out().flush();
            rest = complete ? info.remaining() : "";
        }
        return errors;
    }

    private int report(JShell js, SnippetEvent e, String where, int line, boolean show) {
        if (e.causeSnippet() != null) return 0;
        if (e.status() == Snippet.Status.REJECTED) {
            List<Diag> diags = js.diagnostics(e.snippet()).toList();
            for (Diag d : diags) {
                io.err().println("error: " + where + ":" + line + ": " + d.getMessage(null).replace('\n', ' '));
            }
            if (diags.isEmpty()) io.err().println("error: " + where + ":" + line + ": incomplete or invalid snippet");
            return 1;
        }
        if (e.exception() != null) {
            io.out().println("|  Exception " + exceptionName(e.exception()) + ": " + e.exception().getMessage());
            return 0;
        }
        if (show && e.value() != null && isValueSnippet(e.snippet())) {
            io.out().println(name(e.snippet()) + " ==> " + e.value());
        }
        return 0;
    }

    private static String exceptionName(Exception ex) {
        if (ex instanceof jdk.jshell.EvalException ee) return ee.getExceptionClassName();
        return ex.getClass().getName();
    }

    private static boolean isValueSnippet(Snippet s) {
        return s.kind() == Snippet.Kind.EXPRESSION || s.kind() == Snippet.Kind.VAR;
    }

    private static String name(Snippet s) {
        if (s instanceof jdk.jshell.VarSnippet v) return v.name();
        if (s instanceof jdk.jshell.ExpressionSnippet x) return x.name();
        return s.id();
    }
}
