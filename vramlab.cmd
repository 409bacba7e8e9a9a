@echo off
rem vramlab launcher for Windows: builds what it needs on first use, then runs.
rem It builds only the launcher and what it needs (-pl cli -am), never labs/: the commands that
rem run the student's code (check, and lab / jshell in a student's copy) compile labs/ themselves.
rem After changing the kit's own sources, rebuild with: set VRAMLAB_REBUILD=1
rem Without the network (Maven's -o, from .m2 alone): set VRAMLAB_OFFLINE=1
setlocal
set "ROOT=%~dp0"
set "CP_FILE=%ROOT%cli\target\vramlab.classpath"
set "CLI_JAR=%ROOT%cli\target\vramlab-cli.jar"
set "JSA=%ROOT%cli\target\vramlab.jsa"
if defined VRAMLAB_REBUILD del "%CP_FILE%" 2>nul
rem VRAMLAB_OFFLINE=1 builds with Maven's -o (--offline): from the local repository (.m2) alone,
rem with no network; checked on every run, as ./vramlab does.
set "OFFLINE="
if "%VRAMLAB_OFFLINE%"=="1" set "OFFLINE=-o"
if /i "%VRAMLAB_OFFLINE%"=="true" set "OFFLINE=-o"
if /i "%VRAMLAB_OFFLINE%"=="yes" set "OFFLINE=-o"
if defined OFFLINE goto offline_checked
if "%VRAMLAB_OFFLINE%"=="" goto offline_checked
if "%VRAMLAB_OFFLINE%"=="0" goto offline_checked
if /i "%VRAMLAB_OFFLINE%"=="false" goto offline_checked
if /i "%VRAMLAB_OFFLINE%"=="no" goto offline_checked
echo error: vramlab: VRAMLAB_OFFLINE is '%VRAMLAB_OFFLINE%': expected 1 (build offline, Maven's -o) or 0 1>&2
exit /b 2
:offline_checked
if not exist "%CP_FILE%" (
  del "%JSA%" "%JSA%.stamp" 2>nul
  if defined OFFLINE (
    echo vramlab: building offline ^(VRAMLAB_OFFLINE: Maven's -o; first run; this takes a minute^)... 1>&2
  ) else (
    echo vramlab: building ^(first run; this takes a minute^)... 1>&2
  )
  pushd "%ROOT%"
  call mvn -q -B %OFFLINE% -DskipTests package -pl cli -am < NUL > "%ROOT%.vramlab-build.log" 2>&1
  if errorlevel 1 (
    popd
    echo error: vramlab: the build failed; see .vramlab-build.log 1>&2
    if defined OFFLINE (
      findstr /c:"in offline mode" "%ROOT%.vramlab-build.log" >nul 2>&1 && echo error: vramlab: offline ^(VRAMLAB_OFFLINE^): a dependency is not in .m2 yet; build once with the network, or set VRAMLAB_OFFLINE= 1>&2
    )
    exit /b 1
  )
  popd
)
set /p CP=<"%CP_FILE%"
set "JAVA=java"
if defined JAVA_HOME set "JAVA=%JAVA_HOME%\bin\java"
rem Short commands start faster on the JIT's first tier alone and the serial collector, with the
rem young generation half of a first heap of 6 percent of RAM (measured with bench/e2e.sh, as in
rem ./vramlab); site, slides, grade and release run long. (./vramlab also asks Linux for its heap on huge pages; Windows
rem lends large pages only to an account granted "Lock pages in memory", so this launcher does not.)
rem The flags are a copy of cli\src\main\resources\vramlab\cli\fast-jvm-flags, which ./vramlab reads
rem (FastFlagsTest fails when the two differ).
set "FAST=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:NewRatio=1 -XX:InitialRAMPercentage=6"
if "%~1"=="site" set "FAST="
if "%~1"=="slides" set "FAST="
if "%~1"=="grade" set "FAST="
if "%~1"=="release" set "FAST="
rem The launcher's jar when the build made one (a class-data-sharing archive takes jars only),
rem else its classes folder. After a build, one short replay writes the archive; later runs map
rem it (the JVM quietly ignores one that does not match the class path).
set "KIT=%ROOT%cli\target\classes"
if exist "%CLI_JAR%" set "KIT=%CLI_JAR%"
set "CDS="
if not exist "%CLI_JAR%" goto run
if not exist "%JSA%.stamp" (
  type nul > "%JSA%.stamp"
  (echo alloc a 3MiB& echo alloc b 512& echo free a& echo empty_cache& echo free b) | "%JAVA%" -XX:ArchiveClassesAtExit="%JSA%" -Xlog:cds=off -Xlog:cds+dynamic=off %FAST% -cp "%KIT%;%CP%" vramlab.cli.Main replay - >nul 2>&1
)
if exist "%JSA%" set CDS="-XX:SharedArchiveFile=%JSA%" -Xlog:cds=off -Xlog:cds+dynamic=off
:run
"%JAVA%" %FAST% %CDS% %VRAMLAB_JAVA_OPTS% -Dvramlab.home="%ROOT%." -cp "%KIT%;%CP%" vramlab.cli.Main %*
exit /b %ERRORLEVEL%
