package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.asciidoctor.Asciidoctor;
import org.asciidoctor.Options;
import org.asciidoctor.SafeMode;
import org.asciidoctor.ast.Block;
import org.asciidoctor.ast.Document;
import org.asciidoctor.ast.StructuralNode;
import org.asciidoctor.extension.IncludeProcessor;
import org.asciidoctor.extension.PreprocessorReader;
import org.asciidoctor.log.Severity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import vramlab.kit.AttributeList;
import vramlab.kit.IncludeTags;
import vramlab.kit.TaggedRegions;

/**
 * {@link IncludeTags} (and {@link AttributeList} under it), the one reading of an include's
 * {@code tag=}/{@code tags=} in the kit, beside plain Asciidoctor (AsciidoctorJ's, the site's
 * renderer) reading the same attribute list: the attributes it hands an include processor (the
 * site's {@code ListingIncludes}), and the lines it includes from a file of one-line regions,
 * among them regions named {@code a;b} and {@code a,b}. Where the kit takes the tags by name,
 * {@link TaggedRegions} takes Asciidoctor's lines (or throws where it warns); where it refuses
 * (a wildcard, a negation, {@code lines=}), the tags it read still select Asciidoctor's lines by
 * Asciidoctor's rule for a file whose regions do not nest. JRuby takes seconds to start: in the
 * grading-fixtures profile, as {@link TaggedRegionsAsciidoctorTest}.
 */
@Tag("grading-fixtures")
@DisplayName("an include's tags as Asciidoctor reads them")
class IncludeTagsAsciidoctorTest {
    /** One untagged line, then a one-line region for each tag, then another untagged line. */
    static final List<String> TAGS = List.of("a", "b", "c", "a;b", "a,b");
    static final List<String> FILE = file();

    @TempDir static Path dir;
    static Asciidoctor asciidoctor;
    /** Asciidoctor as the site runs it: includes of .java and .adoc by {@link ListingIncludes}. */
    static Asciidoctor site;
    static final List<String> problems = new ArrayList<>();
    static final List<String> warnings = new ArrayList<>();
    static final List<Map<Object, Object>> handed = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Files.write(dir.resolve("F.txt"), FILE);
        asciidoctor = Asciidoctor.Factory.create();
        asciidoctor.registerLogHandler(r -> {
            if (r.getSeverity().ordinal() >= Severity.WARN.ordinal()) warnings.add(r.getMessage());
        });
        asciidoctor.javaExtensionRegistry().includeProcessor(new IncludeProcessor() {
            @Override public boolean handles(String target) { return target.equals("probe.txt"); }

            @Override
            public void process(Document doc, PreprocessorReader reader, String target, Map<String, Object> attributes) {
                handed.add(new LinkedHashMap<>(attributes));
            }
        });
        site = Asciidoctor.Factory.create();
        site.javaExtensionRegistry().includeProcessor(
                new ListingIncludes(Edition.STUDENT, GradedSteps.of(dir), Map.of(), problems));
    }

    @AfterAll
    static void stop() {
        if (asciidoctor != null) asciidoctor.close();
        if (site != null) site.close();
    }

    static List<String> file() {
        List<String> lines = new ArrayList<>(List.of("top"));
        for (String t : TAGS) lines.addAll(List.of("// tag::" + t + "[]", "in " + t, "// end::" + t + "[]"));
        lines.add("bottom");
        return lines;
    }

    static List<String> attrlists() {
        return List.of("tag=a", "tag=a;b", "tag=a,b", "tag=\"a,b\"", "tags=a;b", "tags=b;a", "tags=\"a,b\"",
                "tags='a;c'", "tags=a,b", "tags=\"a;b,c\"", "tags=a;;c;", "tags=a;a", "tags = a ; b ", "tags=a;b ",
                "tags=", "tags=;", "tag=", "tag=!", "tags=!", "tag=None", "", "indent=0", "tag=a, tags=b",
                "tags=b, tag=a", "indent=0,tag=c", "opts=optional, tag=a", "tags=\"a, b\"", "tag=!a", "tags=!a;!c",
                "tags=**;!b", "tags=*", "tags=!*", "tags=**", "tags=*;!c", "tags=a;*", "tags=a;!a", "tags=!a;a",
                "lines=2..3, tag=a", "tag=a, lines=1",
                "x=\"a \\\" b\", y='c'", "source, shell", "x=1 , y = 2 ", "x=\"open", "opts=\"a, b\",x=None", "a b c");
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("attrlists")
    @DisplayName("an include processor is handed what AttributeList reads")
    void attributes(String attrlist) {
        handed.clear();
        asciidoctor.load("include::probe.txt[" + attrlist + "]\n", Options.builder().safe(SafeMode.UNSAFE).build());
        assertThat(handed).hasSize(1);
        Map<String, String> asciidoctors = new LinkedHashMap<>();
        handed.get(0).forEach((k, v) -> asciidoctors.put(k.toString(), String.valueOf(v)));
        assertThat(AttributeList.parse(attrlist)).as("attributes of [%s]", attrlist).isEqualTo(asciidoctors);
        assertThat(IncludeTags.of(handed.get(0)).asked()).isEqualTo(IncludeTags.parse(attrlist).asked());
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("attrlists")
    @DisplayName("the lines taken are Asciidoctor's, or the kit refuses the tags")
    void lines(String attrlist) {
        warnings.clear();
        Document doc = asciidoctor.load("[source]\n----\ninclude::F.txt[" + attrlist + "]\n----\n",
                Options.builder().safe(SafeMode.UNSAFE).baseDir(dir.toFile()).build());
        List<StructuralNode> listings = doc.findBy(Map.of("context", ":listing"));
        List<String> included = ((Block) listings.get(0)).getLines();
        IncludeTags tags = IncludeTags.parse(attrlist);
        if (!attrlist.contains("lines=")) {
            assertThat(flat(tags)).as("Asciidoctor's rule on the tags read from [%s]", attrlist).isEqualTo(included);
        }
        List<String> named;
        try {
            named = tags.named("F.txt");
        } catch (IncludeTags.Unsupported e) {
            assertThat(e.getMessage()).startsWith("F.txt[" + tags + "]: ");
            assertThat(tags.asked().keySet().stream().anyMatch(t -> t.contains("*") || t.contains(" "))
                    || tags.asked().containsValue(false) || attrlist.contains("lines=")).isTrue();
            return;
        }
        if (named.isEmpty()) {
            assertThat(FILE).isEqualTo(included);
        } else if (warnings.isEmpty()) {
            assertThat(TaggedRegions.take(FILE, named, "F.txt")).isEqualTo(included);
        } else {
            assertThatThrownBy(() -> TaggedRegions.take(FILE, named, "F.txt")).as("Asciidoctor warned: " + warnings)
                    .isInstanceOf(TaggedRegions.TagException.class);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("partialTags")
    @DisplayName("a partial of the notes included by tag renders on the site as Asciidoctor renders it")
    void partialByTag(String attrlist) throws Exception {
        Files.write(dir.resolve("part.adoc"), List.of("// tag::intro[]", "Intro *one*.", "// end::intro[]", "",
                "Between.", "", "// tag::outro[]", "Outro.", "", "// tag::inner[]", "Inner.", "// end::inner[]",
                "// end::outro[]"));
        String page = "= Page\n\ninclude::part.adoc[" + attrlist + "]\n\nAfter.\n";
        Options options = Options.builder().safe(SafeMode.UNSAFE).baseDir(dir.toFile()).build();
        String plain = asciidoctor.convert(page, options);
        problems.clear();
        assertThat(site.convert(page, options)).isEqualTo(plain);
        assertThat(problems).isEmpty();
    }

    static List<String> partialTags() {
        return List.of("tag=intro", "tags=outro;intro", "tag=inner", "tags=\"inner,intro\"", "", "tag=");
    }

    /**
     * The lines Asciidoctor takes from {@link #FILE} for {@code tags}, by its rule in
     * {@code preprocess_include_directive} (reader.rb, 2.0.23) for regions that do not nest: an
     * untagged line by the base selection, a region by its own sign or else the wildcard's.
     */
    static List<String> flat(IncludeTags tags) {
        if (tags.wholeFile()) return FILE;
        Map<String, Boolean> asked = new LinkedHashMap<>(tags.asked());
        Boolean wildcard = null;
        boolean base;
        if (asked.containsKey("**")) {
            base = asked.remove("**");
            if (asked.containsKey("*")) wildcard = asked.remove("*");
            else if (!base && !asked.isEmpty() && !asked.values().iterator().next()) wildcard = true;
        } else if (asked.containsKey("*")) {
            boolean first = asked.keySet().iterator().next().equals("*");
            wildcard = asked.remove("*");
            base = first && !wildcard;
        } else {
            base = !asked.containsValue(true);
        }
        List<String> out = new ArrayList<>();
        if (base) out.add("top");
        for (String t : TAGS) {
            Boolean sign = asked.containsKey(t) ? asked.get(t) : wildcard != null ? wildcard : Boolean.valueOf(base);
            if (sign) out.add("in " + t);
        }
        if (base) out.add("bottom");
        return out;
    }
}
