@echo off
rem vramlab launcher for Windows: builds what it needs on first use, then runs.
rem It builds only the launcher and what it needs (-pl cli -am), never labs/: the commands that
rem run the student's code (check, and lab / jshell in a student's copy) compile labs/ themselves.
rem After changing the kit's own sources, rebuild with: set VRAMLAB_REBUILD=1
setlocal
set "ROOT=%~dp0"
set "CP_FILE=%ROOT%cli\target\vramlab.classpath"
if defined VRAMLAB_REBUILD del "%CP_FILE%" 2>nul
if not exist "%CP_FILE%" (
  echo vramlab: building ^(first run; this takes a minute^)... 1>&2
  pushd "%ROOT%"
  call mvn -q -B -DskipTests package -pl cli -am > "%ROOT%.vramlab-build.log" 2>&1
  if errorlevel 1 (
    popd
    echo error: vramlab: the build failed; see .vramlab-build.log 1>&2
    exit /b 1
  )
  popd
)
set /p CP=<"%CP_FILE%"
set "JAVA=java"
if defined JAVA_HOME set "JAVA=%JAVA_HOME%\bin\java"
set "FAST="
if "%~1"=="check" set "FAST=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
if "%~1"=="lab" set "FAST=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
if "%~1"=="jshell" set "FAST=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
"%JAVA%" %FAST% %VRAMLAB_JAVA_OPTS% -Dvramlab.home="%ROOT%." -cp "%ROOT%cli\target\classes;%CP%" vramlab.cli.Main %*
exit /b %ERRORLEVEL%
