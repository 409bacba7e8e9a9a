package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The prose counter on small inputs: what counts as a word, and what is not prose. */
@DisplayName("The prose-word counter")
class ProseWordsTest {
    @Nested
    @DisplayName("counts the words of paragraphs")
    class Paragraphs {
        @ParameterizedTest(name = "''{0}'' has {1} words")
        @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "One two three.|3",
            "The block is 128 MiB, not 100 MiB.|8",
            "`torch.cuda.empty_cache()` frees device memory.|4",
            "don't count quotes twice: it's one word each|8",
            "a/b, c_d and (e) are three words and one more|10",
            "--- dashes alone are not words ---|5",
            "{link-ch03} is an attribute reference|5",
        })
        void words(String line, int words) {
            assertThat(ProseWords.count(line)).isEqualTo(words);
        }

        @Test
        @DisplayName("over several paragraphs and lines")
        void paragraphs() {
            assertThat(ProseWords.count("First paragraph, two lines\nof text here.\n\nSecond one.\n")).isEqualTo(9);
        }
    }

    @Nested
    @DisplayName("does not count")
    class NotProse {
        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "a heading|= Title words here\\n== Section words\\nprose",
            "an attribute|:toc: macro\\n:sol: ../../x\\nprose",
            "a comment line|// a comment of many words\\nprose",
            "an include|include::{generated}/step-7.1.adoc[]\\nprose",
            "an image|image::figures/timeline.svg[Three training steps]\\nprose",
            "a block attribute line|[source,java]\\nprose",
            "a conditional|ifdef::instructor[]\\nprose\\nendif::[]",
            "a table of contents macro|toc::[]\\nprose",
        })
        void directives(String what, String text) {
            assertThat(ProseWords.count(text.replace("\\n", "\n"))).as(what).isEqualTo(1);
        }

        @Test
        @DisplayName("listings, literal blocks, tables, comment blocks, quotes and passthroughs")
        void delimitedBlocks() {
            String text = String.join("\n", "prose",
                    "----", "int x = 1; // words in code", "----",
                    "....", "literal output words", "....",
                    "|===", "|a |table |row", "|===",
                    "////", "a comment block", "////",
                    "++++", "<p>raw html</p>", "++++",
                    "____", "a quote block", "____",
                    "------", "a longer fence closes only on the same fence", "----", "still inside", "------",
                    "prose");
            assertThat(ProseWords.count(text)).isEqualTo(2);
        }

        @Test
        @DisplayName("list items, their continuation lines and + joins, up to the next blank line")
        void lists() {
            String text = String.join("\n",
                    "* an item of words", "  continued on the next line", "+", "and joined text",
                    "** nested item", ". numbered item", "1. numbered the other way", "- dash item",
                    "Term:: its description", "Term::", "", "prose after the list");
            assertThat(ProseWords.count(text)).isEqualTo(4);
        }

        @Test
        @DisplayName("open-block fences, but the prose inside an open block counts")
        void openBlock() {
            assertThat(ProseWords.count("[.notes]\n--\nspeaker notes here\n--\n")).isEqualTo(3);
        }
    }

    @Test
    @DisplayName("a line that only starts like a list marker is prose (no space after it)")
    void notAListMarker() {
        assertThat(ProseWords.count("*bold* words and 3.5 more")).isEqualTo(5);
    }
}
