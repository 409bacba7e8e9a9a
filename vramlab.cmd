@echo off
rem vramlab launcher for Windows: builds what it needs on first use, then runs.
setlocal
set "ROOT=%~dp0"
set "CP_FILE=%ROOT%cli\target\vramlab.classpath"
if not exist "%CP_FILE%" (
  echo vramlab: building ^(first run; this takes a minute^)... 1>&2
  pushd "%ROOT%"
  call mvn -q -B -DskipTests package > "%ROOT%.vramlab-build.log" 2>&1
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
"%JAVA%" %VRAMLAB_JAVA_OPTS% -Dvramlab.home="%ROOT%." -cp "%ROOT%cli\target\classes;%CP%" vramlab.cli.Main %*
exit /b %ERRORLEVEL%
