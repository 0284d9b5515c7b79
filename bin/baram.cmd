@echo off
rem `baram` from this checkout (or this installation): runs bin\baram.mjs beside this file with the
rem node on PATH. Use it instead of `npx baram`, which could fetch an unrelated package of that name.
node "%~dp0baram.mjs" %*
