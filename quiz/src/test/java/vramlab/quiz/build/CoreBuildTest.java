package vramlab.quiz.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny world of three cores (units in base, gmmu, alloc on gmmu) compiled as a student's copy
 * against a reference compiled from the same sources with one method body changed, so a test can
 * tell whose class ran.
 */
class CoreBuildTest {
    /** The reference, compiled once for the class: CoreBuild only reads it (copyReference, referenceStamp). */
    @TempDir static Path shared;
    static Path reference;
    @TempDir Path tmp;
    Path labs;
    Path work;

    static final Map<String, String> GOOD = Map.of(
            "vramlab/units/Units.java", "package vramlab.units; public final class Units { public static long mib(long n) { return n << 20; } }",
            "vramlab/gmmu/Page.java", "package vramlab.gmmu; public final class Page { public static long size() { return vramlab.units.Units.mib(2); } }",
            "vramlab/alloc/Sim.java", "package vramlab.alloc; public final class Sim { public static String who() { return \"student\" + vramlab.gmmu.Page.size(); } }",
            "vramlab/alloc/Block.java", "package vramlab.alloc; final class Block { Sim owner; }",
            "vramlab/driver/Gpu.java", "package vramlab.driver; public final class Gpu { }",
            "vramlab/buddy/Buddy.java", "package vramlab.buddy; public final class Buddy { }",
            "vramlab/kv/Kv.java", "package vramlab.kv; public final class Kv { }",
            "vramlab/pinned/Pinned.java", "package vramlab.pinned; public final class Pinned { }",
            "vramlab/contest/Entry.java", "package vramlab.contest; public final class Entry { }");

    @BeforeAll
    static void compileTheReference() throws IOException {
        reference = shared.resolve("reference");
        Path refSrc = shared.resolve("refsrc");
        write(refSrc, GOOD);
        Files.writeString(refSrc.resolve("vramlab/alloc/Sim.java"),
                "package vramlab.alloc; public final class Sim { public static String who() { return \"reference\"; } }");
        Files.createDirectories(reference);
        List<String> args = new java.util.ArrayList<>(List.of("-d", reference.toString()));
        try (var s = Files.walk(refSrc)) {
            s.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new))).isZero();
    }

    @BeforeEach
    void setUp() throws IOException {
        labs = tmp.resolve("labs/src/main/java");
        work = tmp.resolve("work");
        write(labs, GOOD);
    }

    CoreBuild.Result build() { return new CoreBuild(labs, reference, work).build(); }

    @Test
    @DisplayName("sources that compile give every core the student's own classes")
    void allCompile() {
        CoreBuild.Result r = build();
        assertThat(r.allCompiled()).isTrue();
        assertThat(r.outcomes()).extracting(o -> o.core().name()).containsExactly(
                "base", "gmmu", "driver", "alloc", "buddy", "kv", "pinned", "contest");
        assertThat(r.of("alloc").classes().resolve("vramlab/alloc/Sim.class")).exists();
        assertThat(r.of("alloc").errors()).isEmpty();
    }

    @Test
    @DisplayName("macOS's AppleDouble files (._Page.java beside Page.java, from a Mac's tar) are not sources: every core compiles")
    void appleDoubleFilesAreNotSources() throws IOException {
        byte[] appleDouble = {0, 5, 22, 7, 0, 2, 0, 0, 'M', 'a', 'c', ' ', 'O', 'S', ' ', 'X'};
        Files.write(labs.resolve("vramlab/gmmu/._Page.java"), appleDouble);
        Files.write(labs.resolve("vramlab/alloc/._Sim.java"), appleDouble);
        CoreBuild.Result r = build();
        assertThat(r.failed()).as("%s", r.failed()).isEmpty();
        assertThat(r.of("alloc").classes().resolve("vramlab/alloc/Sim.class")).exists();
        assertThat(CoreBuild.isSource(Path.of("vramlab/gmmu/._Page.java"))).isFalse();
        assertThat(CoreBuild.isSource(Path.of("vramlab/gmmu/Page.java"))).isTrue();
        assertThat(CoreBuild.isSource(Path.of("vramlab/gmmu/Page.java.orig"))).isFalse();
    }

    @Test
    @DisplayName("asked for one core, it builds that core and the cores it needs, nothing else")
    void onlyWhatIsNeeded() throws IOException {
        Files.writeString(labs.resolve("vramlab/pinned/Pinned.java"), "package vramlab.pinned; class Pinned { int x = ; }");
        CoreBuild.Result r = new CoreBuild(labs, reference, work).build(List.of("alloc"));
        assertThat(r.outcomes()).extracting(o -> o.core().name()).containsExactly("base", "gmmu", "driver", "alloc");
        assertThat(r.allCompiled()).as("the broken pinned core is not compiled").isTrue();
        assertThat(work.resolve("pinned")).doesNotExist();
    }

    @Nested
    @DisplayName("when one core does not compile")
    class Broken {
        @Test
        @DisplayName("only that core falls back to the reference, with the file and line of the error")
        void onlyThatCore() throws IOException {
            Files.writeString(labs.resolve("vramlab/alloc/Sim.java"),
                    "package vramlab.alloc;\npublic final class Sim {\n  public static String who() { return 1 }\n}\n");
            CoreBuild.Result r = build();
            assertThat(r.failed()).extracting(o -> o.core().name()).containsExactly("alloc");
            CoreBuild.Outcome alloc = r.of("alloc");
            assertThat(alloc.errors()).first().satisfies(e -> {
                assertThat(e.file()).isEqualTo("vramlab/alloc/Sim.java");
                assertThat(e.line()).isEqualTo(3);
            });
            assertThat(alloc.summary()).startsWith("alloc: did not compile").contains("vramlab/alloc/Sim.java:3:");
            assertThat(alloc.classes().resolve("vramlab/alloc/Sim.class")).exists();
            assertThat(alloc.classes().resolve("vramlab/gmmu")).doesNotExist();
            assertThat(r.of("gmmu").student()).isTrue();
        }

        @Test
        @DisplayName("the cores built on it compile against the reference's copy")
        void dependentsUseTheReference() throws IOException {
            Files.writeString(labs.resolve("vramlab/gmmu/Page.java"), "package vramlab.gmmu; class Page {");
            CoreBuild.Result r = build();
            assertThat(r.failed()).extracting(o -> o.core().name()).containsExactly("gmmu");
            assertThat(r.of("alloc").student()).as("alloc compiles against the reference gmmu").isTrue();
        }

        @Test
        @DisplayName("a deleted file fails its core instead of letting the reference's class in")
        void deletedFile() throws IOException {
            Files.delete(labs.resolve("vramlab/alloc/Sim.java"));     // Block still names Sim
            CoreBuild.Result r = build();
            assertThat(r.of("alloc").student()).isFalse();
            assertThat(r.of("alloc").errors()).first().extracting(CoreBuild.CompileError::message)
                    .asString().contains("cannot find symbol");
        }
    }

    @Test
    @DisplayName("an unchanged core is reused; a changed one, and the cores built on it, are compiled again")
    void incremental() throws IOException {
        build();
        CoreBuild.Result again = build();
        assertThat(again.outcomes()).allSatisfy(o -> assertThat(o.reused()).isTrue());
        Files.writeString(labs.resolve("vramlab/gmmu/Page.java"),
                "package vramlab.gmmu; public final class Page { public static long size() { return 4096; } }");
        CoreBuild.Result third = build();
        assertThat(third.of("base").reused()).isTrue();
        assertThat(third.of("gmmu").reused()).isFalse();
        assertThat(third.of("alloc").reused()).as("alloc was compiled against the old gmmu").isFalse();
    }

    @Test
    @DisplayName("a core left out of a build is named as changed since built when a file of it is edited, deleted or renamed")
    void changedSinceBuilt() throws IOException {
        Files.writeString(labs.resolve("vramlab/gmmu/Extra.java"), "package vramlab.gmmu; final class Extra { }");
        CoreBuild builder = new CoreBuild(labs, reference, work);
        builder.build(List.of("gmmu"));
        assertThat(builder.changedSinceBuilt()).as("nothing changed").isEmpty();
        assertThat(work.resolve("buddy")).as("never built: not named").doesNotExist();

        Path extra = labs.resolve("vramlab/gmmu/Extra.java");
        Files.delete(extra);
        assertThat(builder.changedSinceBuilt()).as("a file deleted").containsExactly("gmmu");

        Files.writeString(extra, "package vramlab.gmmu; final class Extra { }");
        assertThat(builder.changedSinceBuilt()).as("the same file back").isEmpty();
        Files.move(extra, labs.resolve("vramlab/gmmu/Renamed.java"));
        assertThat(builder.changedSinceBuilt()).as("a file renamed").containsExactly("gmmu");

        Files.move(labs.resolve("vramlab/gmmu/Renamed.java"), extra);
        Files.writeString(labs.resolve("vramlab/gmmu/Page.java"),
                "package vramlab.gmmu; public final class Page { public static long size() { return 4096; } }");
        assertThat(builder.changedSinceBuilt()).as("a file edited").containsExactly("gmmu");
    }

    @Test
    @DisplayName("a file saved again with the same text, a newer time: not changed since built (the old times said changed)")
    void savedAgainUnchanged() throws IOException {
        CoreBuild builder = new CoreBuild(labs, reference, work);
        builder.build(List.of("gmmu"));
        Path page = labs.resolve("vramlab/gmmu/Page.java");
        Files.writeString(page, Files.readString(page));
        Files.setLastModifiedTime(page, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        assertThat(builder.changedSinceBuilt()).isEmpty();
    }

    @Test
    @DisplayName("a file given new text and an older time (git checkout, cp -p): changed since built (the old times missed it)")
    void newTextOlderTime() throws IOException {
        CoreBuild builder = new CoreBuild(labs, reference, work);
        builder.build(List.of("gmmu"));
        Path page = labs.resolve("vramlab/gmmu/Page.java");
        FileTime before = FileTime.fromMillis(Files.getLastModifiedTime(page).toMillis() - 3_600_000);
        Files.writeString(page, "package vramlab.gmmu; public final class Page { public static long size() { return 4096; } }");
        Files.setLastModifiedTime(page, before);
        assertThat(builder.changedSinceBuilt()).containsExactly("gmmu");
        assertThat(builder.build(List.of("gmmu")).of("gmmu").reused()).as("and the build compiles it").isFalse();
        assertThat(builder.changedSinceBuilt()).as("built from this text now").isEmpty();
    }

    @Test
    @DisplayName("a build leaves no file's time touched and keeps only its fingerprint and the sources' digest beside the classes")
    void noTimesTouched() throws IOException {
        CoreBuild builder = new CoreBuild(labs, reference, work);
        builder.build(List.of("gmmu"));
        Path fingerprint = work.resolve("gmmu/fingerprint.txt");
        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(fingerprint, old);
        assertThat(builder.build(List.of("gmmu")).of("gmmu").reused()).isTrue();
        assertThat(Files.getLastModifiedTime(fingerprint)).as("a reused core's stamp is left as it was").isEqualTo(old);
        try (var files = Files.list(work.resolve("gmmu"))) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("fingerprint.txt", "sources.sha256", "classes");
        }
    }

    @Test
    @DisplayName("a core built by a kit that kept no digest is named as changed until it is built again, then gets one")
    void builtByAnOlderKit() throws IOException {
        CoreBuild builder = new CoreBuild(labs, reference, work);
        builder.build(List.of("gmmu"));
        Files.delete(work.resolve("gmmu/sources.sha256"));
        assertThat(builder.changedSinceBuilt()).containsExactly("gmmu");
        assertThat(builder.build(List.of("gmmu")).of("gmmu").reused()).as("its fingerprint still holds").isTrue();
        assertThat(builder.changedSinceBuilt()).isEmpty();
    }

    @Test
    @DisplayName("a fixed error is noticed on the next build")
    void fixedError() throws IOException {
        Path sim = labs.resolve("vramlab/alloc/Sim.java");
        String good = Files.readString(sim);
        Files.writeString(sim, "package vramlab.alloc; class Sim {");
        assertThat(build().of("alloc").student()).isFalse();
        assertThat(build().of("alloc").reused()).isTrue();
        Files.writeString(sim, good);
        assertThat(build().of("alloc").student()).isTrue();
    }

    @Test
    @DisplayName("a core with no sources left earns nothing: the reference stands in and the build says why")
    void missingCore() throws IOException {
        Files.delete(labs.resolve("vramlab/kv/Kv.java"));
        CoreBuild.Outcome kv = build().of("kv");
        assertThat(kv.student()).isFalse();
        assertThat(kv.summary()).contains("no sources for this core");
    }

    @Test
    @DisplayName("a file belongs to the core of its package folder")
    void coreOfFile() {
        assertThat(CoreBuild.coreOfFile("labs/src/main/java/vramlab/alloc/CachingAllocator.java").name()).isEqualTo("alloc");
        assertThat(CoreBuild.coreOfFile("vramlab/pinned/CachingHostAllocator.java").name()).isEqualTo("pinned");
        assertThat(CoreBuild.coreOfFile("vramlab/units/Bytes.java").name()).isEqualTo("base");
        assertThat(CoreBuild.coreOfFile("vramlab/other/X.java").name()).isEqualTo("base");
    }

    /** The batch grader's cache: another submission's build of the same sources is copied, never a stale one. */
    @Nested
    @DisplayName("a cache shared by the builds of a class")
    class SharedCache {
        final CoreCache cache = new CoreCache(1L << 20);

        /** A second student's copy of the tiny world, with {@code edits} applied, built with the cache. */
        CoreBuild.Result other(String name, Map<String, String> edits, String... cores) throws IOException {
            Path src = tmp.resolve(name + "/labs/src/main/java");
            write(src, GOOD);
            write(src, edits);
            CoreBuild b = new CoreBuild(src, reference, tmp.resolve(name + "/work"), cache);
            return cores.length == 0 ? b.build() : b.build(List.of(cores));
        }

        @Test
        @DisplayName("the same sources in another submission compile nothing, byte for byte; a changed source is"
                + " compiled, and every core built on it, the cores below it still copied")
        void sameSourcesCopiedChangedCompiled() throws IOException {
            CoreBuild.Result first = new CoreBuild(labs, reference, work, cache).build(List.of("pinned"));
            assertThat(first.outcomes()).noneMatch(CoreBuild.Outcome::reused);
            CoreBuild.Result same = other("bob", Map.of(), "pinned");
            assertThat(same.outcomes()).hasSize(5).allMatch(CoreBuild.Outcome::reused).allMatch(CoreBuild.Outcome::student);
            assertThat(same.of("alloc").classes()).startsWith(tmp.resolve("bob/work"));
            assertThat(Files.readAllBytes(same.of("alloc").classes().resolve("vramlab/alloc/Sim.class")))
                    .isEqualTo(Files.readAllBytes(first.of("alloc").classes().resolve("vramlab/alloc/Sim.class")));

            CoreBuild.Result changed = other("carol", Map.of("vramlab/alloc/Sim.java",
                    "package vramlab.alloc; public final class Sim { public static String who() { return \"carol's\"; } }"),
                    "pinned");
            for (String core : List.of("base", "gmmu", "driver")) {
                assertThat(changed.of(core).reused()).as(core).isTrue();
            }
            for (String core : List.of("alloc", "pinned")) {
                assertThat(changed.of(core).reused()).as(core).isFalse();
            }
            assertThat(new String(Files.readAllBytes(changed.of("alloc").classes().resolve("vramlab/alloc/Sim.class")),
                    java.nio.charset.StandardCharsets.ISO_8859_1)).contains("carol's");
        }

        @Test
        @DisplayName("a core that did not compile comes back with its errors and the reference's classes")
        void brokenCoreRemembered() throws IOException {
            Map<String, String> broken = Map.of("vramlab/gmmu/Page.java", "package vramlab.gmmu; class Page {");
            CoreBuild.Outcome first = other("dan", broken, "gmmu").of("gmmu");
            CoreBuild.Outcome second = other("erin", broken, "gmmu").of("gmmu");
            assertThat(second.reused()).isTrue();
            assertThat(second.student()).isFalse();
            assertThat(second.errors()).isEqualTo(first.errors()).isNotEmpty();
            assertThat(second.classes().resolve("vramlab/gmmu/Page.class")).exists();
        }

        @Test
        @DisplayName("two submissions built at the same moment compile each shared core once: the second waits"
                + " for the first's classes and copies them")
        void concurrentBuildsCompileOnce() throws Exception {
            for (String name : List.of("gil", "hal")) write(tmp.resolve(name + "/labs/src/main/java"), GOOD);
            CyclicBarrier start = new CyclicBarrier(2);
            ExecutorService jobs = Executors.newFixedThreadPool(2);
            try {
                List<Future<CoreBuild.Result>> results = new ArrayList<>();
                for (String name : List.of("gil", "hal")) {
                    results.add(jobs.submit(() -> {
                        CoreBuild b = new CoreBuild(tmp.resolve(name + "/labs/src/main/java"), reference,
                                tmp.resolve(name + "/work"), cache);
                        start.await();
                        return b.build(List.of("alloc"));
                    }));
                }
                CoreBuild.Result a = results.get(0).get(60, TimeUnit.SECONDS);
                CoreBuild.Result b = results.get(1).get(60, TimeUnit.SECONDS);
                for (String core : List.of("base", "gmmu", "driver", "alloc")) {
                    assertThat(List.of(a.of(core).reused(), b.of(core).reused())).as(core)
                            .containsExactlyInAnyOrder(false, true);
                    assertThat(a.of(core).student()).as(core).isTrue();
                    assertThat(b.of(core).student()).as(core).isTrue();
                }
                assertThat(Files.readAllBytes(b.of("alloc").classes().resolve("vramlab/alloc/Sim.class")))
                        .isEqualTo(Files.readAllBytes(a.of("alloc").classes().resolve("vramlab/alloc/Sim.class")));
            } finally {
                jobs.shutdownNow();
            }
        }

        @Test
        @DisplayName("a full cache keeps nothing more: the next build compiles")
        void capHolds() throws IOException {
            CoreCache none = new CoreCache(0);
            new CoreBuild(labs, reference, work, none).build(List.of("base"));
            assertThat(none.bytesHeld()).isZero();
            Path src = tmp.resolve("fay/labs/src/main/java");
            write(src, GOOD);
            assertThat(new CoreBuild(src, reference, tmp.resolve("fay/work"), none).build(List.of("base")).outcomes())
                    .noneMatch(CoreBuild.Outcome::reused);
        }
    }

    private static void write(Path root, Map<String, String> files) throws IOException {
        for (var e : files.entrySet()) {
            Path p = root.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue());
        }
    }
}
