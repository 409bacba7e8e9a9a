package vramlab.quiz.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A playground's browser bundle ({@code vramlab-playground.js}) compiled from the reference cores
 * rather than from the cores as handed out. Its minified code keeps few of a body's shapes
 * ({@link ExpressionLeaks} reads it, but TeaVM writes {@code long} arithmetic as calls, so most
 * bodies do not show as expressions), so the release does not rely on that: a bundle built from
 * the handed-out cores reaches a graded step only through its {@code Todo}, whose message ("is
 * not written yet") is then in the bundle; one compiled from the reference has none.
 */
public final class PlaygroundBundles {
    /** The bundle's file name, in either edition. */
    public static final String BUNDLE = "vramlab-playground.js";
    /** What {@code vramlab.lab.Todo}'s message says, in every bundle compiled from the stubs. */
    static final String TODO = "is not written yet";

    private PlaygroundBundles() {}

    /** One line per bundle under {@code dir} that was compiled from the reference. */
    public static List<String> fromTheReference(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        List<Path> bundles;
        try (Stream<Path> s = Files.walk(dir)) {
            bundles = s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().equals(BUNDLE)).sorted().toList();
        }
        for (Path b : bundles) {
            if (!Files.readString(b, StandardCharsets.UTF_8).contains(TODO)) {
                out.add(dir.relativize(b).toString().replace('\\', '/') + ": a playground bundle compiled from the reference"
                        + " cores (it never throws a step's Todo), so it holds the graded steps' bodies; the student"
                        + " edition's is built by playground/student");
            }
        }
        return out;
    }
}
