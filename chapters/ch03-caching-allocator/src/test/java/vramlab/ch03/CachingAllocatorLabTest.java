package vramlab.ch03;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import vramlab.kit.Chapters;

class CachingAllocatorLabTest {

    @Test
    @DisplayName("the lab runs, ends with every segment released, and is found by number and slug")
    void smoke() {
        var bytes = new ByteArrayOutputStream();
        CachingAllocatorLab.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("free the last: seg0[0..20)M 20M FREE", "empty_cache() released 20 MiB");
        assertThat(Chapters.find("3").slug()).isEqualTo("caching-allocator");
        assertThat(Chapters.find("ch03").jshellStartup()).contains("void help()");
    }
}
