package vramlab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The course map")
class CourseTest {
    @Test
    @DisplayName("lists chapters 01 to 08 in order, with ARCHITECTURE.md's slugs")
    void sevenChaptersInOrder() {
        assertThat(Course.map()).extracting(Course.Entry::id).containsExactly("ch01-mmu", "ch02-cudamalloc",
                "ch03-caching-allocator", "ch04-real-oom", "ch05-expandable-segments", "ch06-buddy", "ch07-pinned",
                "ch08-malloc-lab");
    }

    @Test
    @DisplayName("knows every chapter module on disk")
    void everyModuleIsOnTheMap() {
        List<String> onMap = Course.map().stream().map(Course.Entry::id).toList();
        assertThat(Course.chapters(Repo.root())).extracting(Course.ChapterDir::id).allMatch(onMap::contains);
    }

    @Test
    @DisplayName("links notes and slides only for chapters whose notes exist, and says so for the rest")
    void linksOnlyWhatExists() {
        String map = IndexPage.courseMap(Course.chapters(Repo.root()));
        for (Course.ChapterDir c : Course.chapters(Repo.root())) {
            assertThat(map.contains("link:" + c.id() + "/notes.html[notes]")).as(c.id()).isEqualTo(c.notes().isPresent());
        }
        assertThat(map).contains("`./vramlab lab real-oom`");
        boolean allPresent = Course.chapters(Repo.root()).stream().allMatch(c -> c.notes().isPresent());
        assertThat(map.contains("_not in this kit yet_")).as("a missing chapter is marked").isEqualTo(!allPresent);
    }
}
