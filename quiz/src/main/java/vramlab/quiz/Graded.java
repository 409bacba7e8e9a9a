package vramlab.quiz;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A graded test: the lab step (or quiz question) it checks and the points it is worth.
 * Graded tests carry the JUnit tag {@code graded}, which {@code mvn test -Plab} selects.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Tag("graded")
public @interface Graded {
    /** The lab step, for example {@code "3.2"}, or a quiz question, {@code "q4.2"}. */
    String step();

    /** Points awarded when the test passes. */
    int points() default 1;
}
