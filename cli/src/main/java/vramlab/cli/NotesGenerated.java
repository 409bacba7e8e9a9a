package vramlab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import vramlab.kit.ChapterLab;
import vramlab.kit.FigureRegistry;

/**
 * What the site build generates for a chapter's notes, written for a release that reads its
 * notes without the site ({@link ReleaseNotes}), found and named by the site's own rules
 * ({@link FigureRegistry}): step N.M's worked example ({@code step-N.M.adoc}), each output
 * ({@code output-xxx-yyy.txt}) and each figure ({@code xxx-yyy.svg} and {@code chNN-xxx-yyy.svg});
 * and the lab's run, {@code lab-output.txt} and {@code chNN-slug.txt}. All are drawn from the
 * cores this process runs on: the reference, in the instructor's copy that writes a release.
 * {@link ReleaseNotes} then expands the notes' includes of these files into the notes and removes
 * them; the figures stay.
 */
final class NotesGenerated {
    private NotesGenerated() {}

    /** Writes {@code lab}'s generated files into {@code generated} and its figures into {@code figures}. */
    static void write(ChapterLab lab, Path generated, Path figures) throws IOException {
        FigureRegistry.write(lab, generated, figures);
        Files.writeString(generated.resolve("playground.adoc"), "NOTE: This chapter's playground (the lab in the"
                + " browser) is in the rendered notes; here, run the lab on your own cores: `./vramlab lab " + lab.id()
                + "`.\n", StandardCharsets.UTF_8);
    }
}
