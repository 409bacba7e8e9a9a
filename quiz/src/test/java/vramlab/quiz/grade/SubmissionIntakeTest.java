package vramlab.quiz.grade;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every shape a submission arrives in, and the archives it must refuse: the folder found is
 * the one holding labs/, what was found is said, and nothing here throws.
 */
class SubmissionIntakeTest {
    static final String SOURCE = "labs/src/main/java/vramlab/alloc/ToyPolicy.java";
    static final String SHEET = "labs/answers/ch03.txt";

    @TempDir Path tmp;

    /** Writes {@code files} (path to text) under {@code dir}. */
    static Path tree(Path dir, Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = dir.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        Files.createDirectories(dir);
        return dir;
    }

    static Map<String, String> copy(String prefix) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(prefix + SOURCE, "class ToyPolicy {}");
        m.put(prefix + SHEET, "q3.1.a = 2 MiB");
        return m;
    }

    SubmissionIntake.Found open(Path given) throws IOException {
        return SubmissionIntake.open(given, Files.createDirectories(tmp.resolve("scratch-" + given.getFileName())));
    }

    @Nested
    @DisplayName("a folder")
    class Folders {
        @Test
        @DisplayName("labs/ at the top: graded there, said so, no flag")
        void atTheTop() throws IOException {
            Path kim = tree(tmp.resolve("kim"), copy(""));
            SubmissionIntake.Found f = open(kim);
            assertThat(f.root()).isEqualTo(kim.toRealPath());
            assertThat(f.where()).isEqualTo("labs/ at the top");
            assertThat(f.flags()).isEmpty();
        }

        @Test
        @DisplayName("Download ZIP's nesting, two folders down, beside a clone's .git: found, and where")
        void twoDown() throws IOException {
            Path ivan = tree(tmp.resolve("ivan"), copy("ivan/vramlab-main/"));
            tree(ivan.resolve(".git"), Map.of("labs/src/main/java/X.java", "a decoy in the history"));
            SubmissionIntake.Found f = open(ivan);
            assertThat(f.root()).isEqualTo(ivan.resolve("ivan/vramlab-main").toRealPath());
            assertThat(f.where()).isEqualTo("labs/ at ivan/vramlab-main/");
        }

        @Test
        @DisplayName("three folders down is not looked at: graded as empty, the flag says what was looked for")
        void threeDownIsTooDeep() throws IOException {
            Path deep = tree(tmp.resolve("deep"), copy("a/b/c/"));
            SubmissionIntake.Found f = open(deep);
            assertThat(f.root()).isNull();
            assertThat(f.flags()).singleElement().asString().startsWith("no labs/ found: looked for labs/src/main/java")
                    .contains("one or two folders down").contains("graded as an empty copy");
        }

        @Test
        @DisplayName("labs/'s own contents uploaded (src/main/java, answers/): the top is the copy")
        void labsContents() throws IOException {
            Path up = tree(tmp.resolve("up"), Map.of("src/main/java/vramlab/alloc/ToyPolicy.java", "x",
                    "answers/ch03.txt", "y"));
            SubmissionIntake.Found f = open(up);
            assertThat(f.root()).isEqualTo(up.toRealPath());
            assertThat(f.where()).isEqualTo("labs/'s contents at the top");
        }

        @Test
        @DisplayName("files uploaded without their folders: the flag names them and says to upload labs/ itself")
        void looseFiles() throws IOException {
            Path flat = tree(tmp.resolve("flat"), Map.of("CachingAllocator.java", "x", "ToyPolicy.java", "x",
                    "BuddyAllocator.java", "x", "ch03.txt", "y"));
            SubmissionIntake.Found f = open(flat);
            assertThat(f.root()).isNull();
            assertThat(f.flags()).singleElement().asString().startsWith("no labs/ found: looked for")
                    .contains("but found BuddyAllocator.java and 2 more .java files and ch03.txt without the folders")
                    .contains("upload the labs/ folder itself").endsWith("; graded as an empty copy");
            assertThat(SubmissionIntake.loose(Files.createDirectories(tmp.resolve("nothing")))).isEmpty();
        }

        @Test
        @DisplayName("an empty folder: no root, one flag")
        void empty() throws IOException {
            SubmissionIntake.Found f = open(Files.createDirectories(tmp.resolve("empty")));
            assertThat(f.root()).isNull();
            assertThat(f.where()).isEqualTo("no labs/");
            assertThat(f.flags()).hasSize(1);
        }

        @Test
        @DisplayName("two copies side by side: the first in name order is graded, and the flag names both")
        void twoCopies() throws IOException {
            Map<String, String> files = new LinkedHashMap<>(copy("b/"));
            files.putAll(copy("a/"));
            Path two = tree(tmp.resolve("two"), files);
            SubmissionIntake.Found f = open(two);
            assertThat(f.root()).isEqualTo(two.resolve("a").toRealPath());
            assertThat(f.flags()).singleElement().asString().contains("a/, b/").contains("graded the one at a/");
        }

        @Test
        @DisplayName("a link named labs/ that leads out of the submission is not followed")
        void linkOut() throws IOException {
            Path elsewhere = tree(tmp.resolve("elsewhere"), Map.of("src/main/java/vramlab/alloc/ToyPolicy.java", "x"));
            Path sly = Files.createDirectories(tmp.resolve("sly"));
            Files.createSymbolicLink(sly.resolve("labs"), elsewhere);
            SubmissionIntake.Found f = open(sly);
            assertThat(f.root()).isNull();
            Submission s = new Submission(sly.toRealPath(), tmp.resolve("area"));
            assertThat(s.labSources()).as("Submission does not read through the link either").isNull();
        }

        @Test
        @DisplayName("a folder that cannot be read: no root, a flag saying so, nothing thrown")
        void unreadable() throws IOException {
            Path locked = tree(tmp.resolve("locked"), copy(""));
            Files.setPosixFilePermissions(locked, java.util.Set.of());
            try {
                org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(locked),
                        "skipped: this user reads folders whatever their permissions (root?)");
                SubmissionIntake.Found f = open(locked);
                assertThat(f.root()).isNull();
                assertThat(f.flags()).singleElement().asString().startsWith("could not read the submission: ")
                        .contains("permission denied").contains("graded as an empty copy");
            } finally {
                Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            }
        }

        @Test
        @DisplayName("the given folder may itself be a link (Gradescope links the upload in)")
        void givenAsLink() throws IOException {
            Path real = tree(tmp.resolve("real"), copy(""));
            Path link = Files.createSymbolicLink(tmp.resolve("s123"), real);
            assertThat(open(link).root()).isEqualTo(real.toRealPath());
            assertThat(SubmissionIntake.studentOf(link)).isEqualTo("s123");
        }
    }

    @Nested
    @DisplayName("an archive")
    class Archives {
        @Test
        @DisplayName("a zip of Download ZIP's nesting is unpacked and found; the student is the name without .zip")
        void zip() throws IOException {
            Path zip = zipOf(tmp.resolve("kim.zip"), copy("vramlab-main/"));
            assertThat(SubmissionIntake.studentOf(zip)).isEqualTo("kim");
            SubmissionIntake.Found f = open(zip);
            assertThat(f.flags()).isEmpty();
            assertThat(f.where()).isEqualTo("unpacked kim.zip (2 files), labs/ at vramlab-main/");
            assertThat(f.root().resolve(SOURCE)).hasContent("class ToyPolicy {}");
        }

        @Test
        @DisplayName("a .tar.gz is unpacked; its links are left out")
        void tarGz() throws IOException {
            Path tgz = tmp.resolve("lee.tar.gz");
            try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(Files.newOutputStream(tgz)))) {
                for (Map.Entry<String, String> e : copy("").entrySet()) {
                    byte[] b = e.getValue().getBytes(StandardCharsets.UTF_8);
                    TarArchiveEntry te = new TarArchiveEntry(e.getKey());
                    te.setSize(b.length);
                    tar.putArchiveEntry(te);
                    tar.write(b);
                    tar.closeArchiveEntry();
                }
                TarArchiveEntry link = new TarArchiveEntry("labs/answers/ch04.txt", TarArchiveEntry.LF_SYMLINK);
                link.setLinkName("/etc/passwd");
                tar.putArchiveEntry(link);
                tar.closeArchiveEntry();
            }
            assertThat(SubmissionIntake.studentOf(tgz)).isEqualTo("lee");
            SubmissionIntake.Found f = open(tgz);
            assertThat(f.where()).isEqualTo("unpacked lee.tar.gz (2 files), labs/ at the top");
            assertThat(f.root().resolve("labs/answers/ch04.txt")).doesNotExist();
        }

        @Test
        @DisplayName("zip slip: an entry climbing out with .. refuses the archive, and nothing lands outside")
        void zipSlip() throws IOException {
            Map<String, String> files = new LinkedHashMap<>(copy(""));
            files.put("labs/../../../evil.txt", "owned");
            Path zip = zipOf(tmp.resolve("slip.zip"), files);
            SubmissionIntake.Found f = open(zip);
            assertThat(f.root()).isNull();
            assertThat(f.flags()).singleElement().asString().contains("could not unpack slip.zip")
                    .contains("climbs out with '..'").contains("graded as an empty copy");
            assertThat(tmp.resolve("evil.txt")).doesNotExist();
        }

        @Test
        @DisplayName("an absolute entry name refuses the archive")
        void absolute() throws IOException {
            SubmissionIntake.Found f = open(zipOf(tmp.resolve("abs.zip"), Map.of("/tmp/x.java", "x")));
            assertThat(f.flags()).singleElement().asString().contains("absolute name");
        }

        @Test
        @DisplayName("what it decompresses to is capped: a bomb stops at the cap, counted in bytes read, not declared")
        void bomb() throws IOException {
            Path zip = tmp.resolve("bomb.zip");
            try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
                z.putNextEntry(new ZipEntry("labs/zeros.txt"));
                z.write(new byte[3 << 20]);
                z.closeEntry();
            }
            assertThat(Files.size(zip)).as("it compresses well").isLessThan(64 * 1024);
            SubmissionIntake.Found f = SubmissionIntake.open(zip, tmp.resolve("scratch"),
                    new SubmissionIntake.Limits(2 << 20, 100, 4 << 20));
            assertThat(f.flags()).singleElement().asString().contains("decompresses to more than 2 MiB");
        }

        @Test
        @DisplayName("entries are capped, and a file over the file cap is left out, the rest kept")
        void entriesAndBigFiles() throws IOException {
            Map<String, String> many = new LinkedHashMap<>();
            for (int i = 0; i < 11; i++) many.put("labs/answers/f" + i + ".txt", "x");
            SubmissionIntake.Found f = SubmissionIntake.open(zipOf(tmp.resolve("many.zip"), many), tmp.resolve("s1"),
                    new SubmissionIntake.Limits(1 << 20, 10, 1 << 20));
            assertThat(f.flags()).singleElement().asString().contains("more than 10 entries");
            Map<String, String> big = new LinkedHashMap<>(copy(""));
            big.put("labs/big.bin", "y".repeat(5000));
            SubmissionIntake.Found g = SubmissionIntake.open(zipOf(tmp.resolve("big.zip"), big), tmp.resolve("s2"),
                    new SubmissionIntake.Limits(1 << 20, 100, 4096));
            assertThat(g.flags()).isEmpty();
            assertThat(g.root().resolve("labs/big.bin")).doesNotExist();
            assertThat(g.root().resolve(SOURCE)).exists();
        }

        @Test
        @DisplayName("a clone's .git and target/ are never written")
        void history() throws IOException {
            Map<String, String> files = new LinkedHashMap<>(copy(""));
            files.put(".git/objects/ab/cdef", "blob");
            files.put("labs/target/classes/X.class", "bytes");
            SubmissionIntake.Found f = open(zipOf(tmp.resolve("clone.zip"), files));
            assertThat(f.root().resolve(".git")).doesNotExist();
            assertThat(f.root().resolve("labs/target")).doesNotExist();
        }

        @Test
        @DisplayName("a zip from Windows' Compressed folder, a name in CP437 without the UTF-8 flag: unpacked, not refused")
        void windowsNames() throws IOException {
            Map<String, String> files = new LinkedHashMap<>(copy(""));
            files.put("labs/Notiz f\u00fcr mich.txt", "my notes");
            Path zip = tmp.resolve("wendy.zip");
            try (ZipArchiveOutputStream z = new ZipArchiveOutputStream(Files.newOutputStream(zip))) {
                z.setEncoding("Cp437");                     // as Windows writes them: the OEM code page...
                z.setUseLanguageEncodingFlag(false);        // ...with no flag saying UTF-8
                z.setCreateUnicodeExtraFields(ZipArchiveOutputStream.UnicodeExtraFieldPolicy.NEVER);
                for (Map.Entry<String, String> e : files.entrySet()) {
                    z.putArchiveEntry(new ZipArchiveEntry(e.getKey()));
                    z.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                    z.closeArchiveEntry();
                }
            }
            SubmissionIntake.Found f = open(zip);
            assertThat(f.flags()).isEmpty();
            assertThat(f.where()).isEqualTo("unpacked wendy.zip (3 files), labs/ at the top");
            assertThat(f.root().resolve(SOURCE)).hasContent("class ToyPolicy {}");
            assertThat(f.root().resolve(SHEET)).hasContent("q3.1.a = 2 MiB");
        }

        @Test
        @DisplayName("a zip written as a stream, a stored entry with a data descriptor: refused with why, never held whole")
        void storedWithDescriptor() throws IOException {
            Map<String, String> files = new LinkedHashMap<>(copy(""));
            files.put("labs/big.bin", "z".repeat(6 << 20));
            Path zip = Files.write(tmp.resolve("sam.zip"), streamedStoredZip(files));
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory
                    .getThreadMXBean();
            long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
            SubmissionIntake.Found f = open(zip);
            long allocated = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            assertThat(f.root()).isNull();
            assertThat(f.flags()).singleElement().asString().startsWith("could not unpack sam.zip: ")
                    .contains("data descriptor").endsWith("graded as an empty copy");
            assertThat(allocated).as("bytes allocated to refuse it").isLessThan(2L << 20);
        }

        @Test
        @DisplayName("a file named .zip that is not one: flagged, graded as empty")
        void notAZip() throws IOException {
            Path zip = tmp.resolve("junk.zip");
            Files.writeString(zip, "this is not a zip file at all");
            SubmissionIntake.Found f = open(zip);
            assertThat(f.root()).isNull();
            assertThat(f.flags()).singleElement().asString().startsWith("could not unpack junk.zip: it holds nothing");
        }

        @Test
        @DisplayName("a stray file is no submission; folders and archives are")
        void whatIsASubmission() throws IOException {
            Path notes = Files.writeString(tmp.resolve("notes.txt"), "hello");
            assertThat(SubmissionIntake.isSubmission(notes)).isFalse();
            assertThat(SubmissionIntake.isSubmission(tmp.resolve("nosuch.zip"))).isFalse();
            assertThat(SubmissionIntake.isSubmission(zipOf(tmp.resolve("a.ZIP"), copy("")))).isTrue();
            assertThat(SubmissionIntake.studentOf(tmp.resolve("a.ZIP"))).isEqualTo("a");
        }
    }

    @Test
    @DisplayName("an entry's place: inside the scratch folder, or refused; unwanted folders give null")
    void targets() throws IOException {
        Path base = tmp.toRealPath();
        assertThat(SubmissionIntake.target(base, "labs/src/A.java")).isEqualTo(base.resolve("labs/src/A.java"));
        assertThat(SubmissionIntake.target(base, "labs\\src\\A.java")).isEqualTo(base.resolve("labs/src/A.java"));
        assertThat(SubmissionIntake.target(base, "./labs//A.java")).isEqualTo(base.resolve("labs/A.java"));
        assertThat(SubmissionIntake.target(base, "x/.git/config")).isNull();
        for (String bad : List.of("../a", "a/../../b", "/etc/passwd", "C:/x", "\\\\server\\x", "a/..")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> SubmissionIntake.target(base, bad)).as(bad)
                    .isInstanceOf(SubmissionIntake.Refused.class);
        }
    }

    /**
     * A zip as a writer that cannot seek back makes it (Python's zipfile on a pipe, streaming
     * servers): each entry stored, general purpose bit 3 set, its CRC and sizes 0 in the local
     * header and given after the data in a data descriptor (APPNOTE.TXT 4.3.9); then the central
     * directory and its end record.
     */
    static byte[] streamedStoredZip(Map<String, String> files) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.nio.ByteBuffer cd = java.nio.ByteBuffer.allocate(1 << 16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int n = 0;
        for (Map.Entry<String, String> e : files.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] data = e.getValue().getBytes(StandardCharsets.UTF_8);
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(data);
            int at = b.position();
            b.putInt(0x04034b50).putShort((short) 20).putShort((short) 0x0008).putShort((short) 0)   // stored
                    .putShort((short) 0).putShort((short) 0x21)                                       // time, date
                    .putInt(0).putInt(0).putInt(0).putShort((short) name.length).putShort((short) 0).put(name).put(data);
            b.putInt(0x08074b50).putInt((int) crc.getValue()).putInt(data.length).putInt(data.length);
            cd.putInt(0x02014b50).putShort((short) 20).putShort((short) 20).putShort((short) 0x0008).putShort((short) 0)
                    .putShort((short) 0).putShort((short) 0x21).putInt((int) crc.getValue()).putInt(data.length)
                    .putInt(data.length).putShort((short) name.length).putShort((short) 0).putShort((short) 0)
                    .putShort((short) 0).putShort((short) 0).putInt(0).putInt(at).put(name);
            n++;
        }
        int cdAt = b.position();
        b.put(cd.array(), 0, cd.position());
        b.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) n).putShort((short) n)
                .putInt(cd.position()).putInt(cdAt).putShort((short) 0);
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    static Path zipOf(Path to, Map<String, String> files) throws IOException {
        try (OutputStream o = Files.newOutputStream(to); ZipOutputStream z = new ZipOutputStream(o)) {
            for (Map.Entry<String, String> e : files.entrySet()) {
                z.putNextEntry(new ZipEntry(e.getKey()));
                z.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                z.closeEntry();
            }
        }
        return to;
    }
}
