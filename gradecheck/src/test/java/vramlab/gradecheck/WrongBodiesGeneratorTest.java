package vramlab.gradecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import vramlab.labgen.LabGenerator;
import vramlab.quiz.KitPaths;

@DisplayName("The wrong-body generator makes the typical wrong answers of a step")
class WrongBodiesGeneratorTest {
    static final LabGenerator.Step STEP =
            new LabGenerator.Step("9.9", "Pick", "ch09 \"Rule\"", "labs/src/main/java/vramlab/x/X.java", 3);
    static final String BEGIN = "        // lab:begin 9.9 \"Pick\" see ch09 \"Rule\"";
    static final List<String> BODY = List.of(
            "        int first = (start + 1) / 2;",
            "        if (first < 0) return -1;   // a < b in a comment",
            "        if (a >= b && c != null) count++;",
            "        total += count;",
            "        count = 0;",
            "        String s = \"x < y\";",
            "        return first > total || s.isEmpty() ? first : total;");

    static List<WrongBodies.Mutant> of(String kind) {
        return WrongBodies.of(STEP, "    public int pick(int start) {", BODY, BEGIN).stream()
                .filter(m -> m.kind().equals(kind)).toList();
    }

    static List<String> changedLines(WrongBodies.Mutant m) {
        return m.body().stream().filter(l -> !BODY.contains(l)).map(String::strip).toList();
    }

    @Nested
    @DisplayName("on a small body")
    class Small {
        @Test
        @DisplayName("boundary: every comparison off by one, and every + 1 left out; none inside a comment or a string")
        void boundaries() {
            assertThat(of("boundary")).extracting(m -> changedLines(m).get(0)).containsExactly(
                    "int first = (start) / 2;",
                    "if (first <= 0) return -1;   // a < b in a comment",
                    "if (a > b && c != null) count++;",
                    "return first >= total || s.isEmpty() ? first : total;");
        }

        @Test
        @DisplayName("condition: each operand of && and || left out, and each one-line guard left out")
        void conditions() {
            List<WrongBodies.Mutant> c = of("condition");
            assertThat(c).extracting(WrongBodies.Mutant::description).contains(
                    "`if (a >= b && c != null) count++;` without `&& c != null`",
                    "`if (a >= b && c != null) count++;` without `a >= b &&`",
                    "`return first > total || s.isEmpty() ? first : total;` without `|| s.isEmpty()`",
                    "`return first > total || s.isEmpty() ? first : total;` without `first > total ||`",
                    "without the guard `if (first < 0) return -1;   // a < b in a comment`");
            assertThat(c).filteredOn(m -> m.description().startsWith("without the guard"))
                    .singleElement().satisfies(m -> assertThat(m.body()).hasSize(BODY.size() - 1));
            assertThat(c).filteredOn(m -> m.description().endsWith("without `&& c != null`")).singleElement()
                    .satisfies(m -> assertThat(changedLines(m)).containsExactly("if (a >= b) count++;"));
        }

        @Test
        @DisplayName("order: adjacent statements that share a variable are swapped")
        void order() {
            assertThat(of("order")).singleElement().satisfies(m -> {
                assertThat(m.description()).isEqualTo("`count = 0;` before `total += count;`");
                assertThat(m.body().subList(3, 5)).containsExactly("        count = 0;", "        total += count;");
            });
        }

        @Test
        @DisplayName("default: the type's default value; early: the early exit at once; todo: the generator's line")
        void defaultsEarlyTodo() {
            assertThat(of("default")).extracting(m -> m.body()).containsExactly(List.of("        return 0;"));
            assertThat(of("early")).singleElement().satisfies(m -> assertThat(m.body().get(1))
                    .isEqualTo("        if (true) return -1;"));
            assertThat(of("todo")).singleElement().satisfies(m -> assertThat(m.body()).containsExactly(
                    "        throw new vramlab.lab.Todo(\"9.9\", \"Pick\", \"ch09 \\\"Rule\\\"\", "
                            + "\"labs/src/main/java/vramlab/x/X.java\");"));
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}  /  {1}  ->  {2}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '~', textBlock = """
            pool.remove(prev);             ~ absorbNext(prev);                ~ true
            block = prev;                  ~ absorbNext(prev);                ~ true
            rest.prev = toMap;             ~ rest.mapped = false;             ~ false
            toMap.size = r.size();         ~ toMap.next = rest;               ~ false
            b |= (long) peer << 33;        ~ b |= (pfn & 7) << 8;             ~ false
            b |= x;                        ~ b &= y;                          ~ true
            int first = offset / pageSize; ~ int end = (offset + size) / pageSize; ~ false
            long page = p.create(size);    ~ pages.add(page);                 ~ true
            pages.add(page);               ~ process.map(va, page);           ~ false
            reserved += n;                 ~ stats.increase(n);               ~ false
            stats.count++;                 ~ stats.increase(n);               ~ true
            tokens.put(request, total);    ~ tables.put(request, grown);      ~ false
            long total = tokens(request);  ~ List<Integer> t = tables.get(request); ~ false
            """)
    @DisplayName("order: two statements depend on each other when one writes what the other uses")
    void dependence(String a, String b, boolean dependent) {
        assertThat(WrongBodies.Effects.of(a).dependsOn(WrongBodies.Effects.of(b))).isEqualTo(dependent);
        assertThat(WrongBodies.Effects.of(b).dependsOn(WrongBodies.Effects.of(a))).isEqualTo(dependent);
    }

    @Test
    @DisplayName("every step marked in solutions/ gets a Todo, a default and at least one edit of its code")
    void everyStep() throws IOException {
        Path solutions = KitPaths.root().resolve("solutions");
        List<LabGenerator.Step> steps = LabGenerator.steps(solutions);
        assertThat(steps).hasSizeGreaterThanOrEqualTo(29);
        for (LabGenerator.Step step : steps) {
            StepSource src = StepSource.of(step, solutions);
            List<WrongBodies.Mutant> ms = WrongBodies.of(step, src.header(), src.body(), src.beginLine());
            assertThat(ms).as(step.id()).extracting(WrongBodies.Mutant::kind).contains("todo", "default");
            assertThat(ms).as(step.id()).allSatisfy(m -> assertThat(m.body()).isNotEqualTo(src.body()));
        }
    }
}
