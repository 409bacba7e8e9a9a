package vramlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import vramlab.kit.ChapterLab;
import vramlab.kit.Chapters;
import vramlab.kit.Exercise;
import vramlab.quiz.KitPaths;
import vramlab.quiz.PracticeKey;
import vramlab.quiz.Question;
import vramlab.quiz.ReferenceKeys;
import vramlab.units.Bytes;

/**
 * What a student release holds in place of the reference simulator, so that a student checks
 * every point alone: each chapter's practice quiz key as keyed hashes ({@link PracticeKey}), and
 * the exercises' answers for seeds 1 to {@value #SEEDS}, computed here by the reference when the
 * release is written. Both go under {@code quiz/src/main/resources/vramlab/quiz/practice/}.
 * Also the release's check that no quiz key is written out in it ({@link #keysShownIn}).
 */
final class PracticeKeys {
    /** The exercise seeds whose answers {@code ./vramlab release} writes. */
    static final int SEEDS = 20;

    private static final String DIR = "quiz/src/main/resources/";
    private static final String EXERCISES = "vramlab/quiz/practice/exercises.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PracticeKeys() {}

    /**
     * Writes the practice keys, and the exercises' prompts and answers for seeds 1 to
     * {@code seeds}, into the release at {@code dir}. (Exercise 4.2 searches for its answer: about
     * 2 s a seed on a laptop, most of a release's time.)
     */
    static void write(Path dir, int seeds) throws IOException {
        Map<String, List<Question>> byChapter = new TreeMap<>();
        for (Question q : ServiceLoader.load(Question.class)) byChapter.computeIfAbsent(q.chapter(), c -> new ArrayList<>()).add(q);
        for (Map.Entry<String, List<Question>> e : byChapter.entrySet()) {
            Path f = dir.resolve(DIR + PracticeKey.resource(e.getKey()));
            Files.createDirectories(f.getParent());
            Files.writeString(f, PracticeKey.write(e.getKey(), QuizCommand.questions(e.getKey())), StandardCharsets.UTF_8);
        }
        Map<String, String> answers = new LinkedHashMap<>();
        answers.put("seeds", Integer.toString(seeds));
        for (ChapterLab ch : Chapters.all()) {
            List<Exercise> all = ch.exercises();
            for (int i = 0; i < all.size(); i++) {
                for (long seed = 1; seed <= seeds; seed++) {
                    answers.put(exerciseKey(ch.number(), i + 1, seed) + " prompt", all.get(i).prompt(seed));
                    answers.put(exerciseKey(ch.number(), i + 1, seed) + " answer", all.get(i).answer(seed));
                }
            }
        }
        Path f = dir.resolve(DIR + EXERCISES);
        Files.createDirectories(f.getParent());
        Files.writeString(f, JSON.writeValueAsString(answers) + "\n", StandardCharsets.UTF_8);
    }

    /** In a release: how many seeds of each exercise it holds (1 to the number), 0 when none. */
    static int exerciseSeeds(Path root) throws IOException {
        Path f = root.resolve(DIR + EXERCISES);
        if (!Files.isRegularFile(f)) return 0;
        Map<String, String> all = JSON.readValue(Files.readString(f, StandardCharsets.UTF_8), new TypeReference<>() {});
        return Integer.parseInt(all.getOrDefault("seeds", "0"));
    }

    static String exerciseKey(int chapter, int n, long seed) { return chapter + "." + n + " seed " + seed; }

    /** In a release: the practice quiz of {@code chapter} ("ch03"), as questions that mark with hashes; empty when none. */
    static List<Question> quiz(Path root, String chapter) throws IOException {
        Path f = root.resolve(DIR + PracticeKey.resource(chapter));
        if (!Files.isRegularFile(f)) return List.of();
        return PracticeKey.read(Files.readString(f, StandardCharsets.UTF_8), Bytes::parse);
    }

    /**
     * In a release: what the reference computed for exercise {@code n} of {@code chapter} and
     * {@code seed} ({@code part} "prompt" or "answer"), or null when the release does not hold it.
     */
    static String exercise(Path root, int chapter, int n, long seed, String part) throws IOException {
        Path f = root.resolve(DIR + EXERCISES);
        if (!Files.isRegularFile(f)) return null;
        Map<String, String> all = JSON.readValue(Files.readString(f, StandardCharsets.UTF_8), new TypeReference<>() {});
        return all.get(exerciseKey(chapter, n, seed) + " " + part);
    }

    /** A choice written as a constant in a call to {@code Blanks.choice} or {@code choices}: a key in the source. */
    private static final Pattern LITERAL_CHOICE = Pattern.compile(
            "Blanks\\.choices?\\(\\s*[^,;]+,\\s*(?:EnumSet\\.of\\(|[A-Z]\\w*\\.[A-Z][A-Z0-9_]*\\s*\\))");

    /**
     * Where the release at {@code dir} writes a quiz key out: a choice blank's constant in a
     * question's source, or any key kept with the reference ({@link ReferenceKeys}) next to its
     * blank's name (a filled-in sheet line {@code q3.5.a.layer = ...}, a test's expected value).
     */
    static List<String> keysShownIn(Path dir) throws IOException {
        Properties keys = new Properties();
        try (InputStream in = PracticeKeys.class.getClassLoader().getResourceAsStream(ReferenceKeys.RESOURCE)) {
            if (in == null) throw new IllegalStateException(ReferenceKeys.RESOURCE + " is not on the launcher's class path");
            keys.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        List<Pattern> filled = new ArrayList<>();
        for (String k : keys.stringPropertyNames()) {
            for (String v : keys.getProperty(k).split(",")) {
                filled.add(Pattern.compile(Pattern.quote(k) + "\"?\\s*(?:=|\\)\\)?\\.isEqualTo\\()\\s*\"?[^\\n]*\\b"
                        + v.strip().replace("_", "[ _-]+") + "\\b", Pattern.CASE_INSENSITIVE));
            }
        }
        List<String> out = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).filter(p -> p.toString().matches(".*\\.(java|txt|adoc|jsh|properties|json|html|md)$"))
                    .sorted().toList();
        }
        for (Path f : files) {
            String text = Files.readString(f, StandardCharsets.ISO_8859_1);
            String rel = dir.relativize(f).toString().replace('\\', '/');
            Matcher m = LITERAL_CHOICE.matcher(text);
            if (m.find()) out.add(rel + ":" + line(text, m.start()) + ": a choice blank's key as a constant (keep it in " + ReferenceKeys.RESOURCE + "): " + m.group());
            for (Pattern p : filled) {
                Matcher k = p.matcher(text);
                if (k.find()) out.add(rel + ":" + line(text, k.start()) + ": a quiz key: " + k.group());
            }
        }
        return out;
    }

    private static int line(String text, int at) {
        int n = 1;
        for (int i = 0; i < at; i++) if (text.charAt(i) == '\n') n++;
        return n;
    }

    /** True when {@code root} is a student release. */
    static boolean release(Path root) { return KitPaths.isRelease(root); }
}
