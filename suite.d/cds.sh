# shellcheck shell=bash
# Sourced by suite.d/common.sh: needs SUITE_LIB. Not for the Grinder workers: recording an archive
# with their -javaagent needs -XX:+AllowArchivingWithJavaAgent, after which every worker prints
# the JDK's "for testing purposes only" warning; and their start (mostly Jython) was no faster.

# Class-data sharing for the suite's own brief JVMs (JDK 17 dynamic archives): the first JVM of a
# kind records the classes it loaded from the ~190 jars as it exits; once it has exited normally
# (cds_recorded) that recording becomes lib/cds/KIND.jsa, and later JVMs of the kind map it instead
# of loading the classes again (lifecycle finalise: 3.2 -> 2.1 s, 2.0 -> 1.3 CPU s here). Only a
# JVM that exited by itself is trusted: a truncated archive crashes the JVM that maps it. An
# archive older than the suite's jars is not used (./suite setup also removes them when it
# rebuilds). SUITE_CDS=off turns it off.
# Sets CDS_OPTS (an array) for the JVM about to start, and CDS_RECORDING when it records.
# shellcheck disable=SC2034  # CDS_OPTS is read by the caller
cds_options() {
  local kind=$1 archive
  archive=$SUITE_LIB/cds/$kind.jsa
  CDS_OPTS=()
  CDS_RECORDING=""
  [[ ${SUITE_CDS:-on} != off && -d $SUITE_LIB ]] || return 0
  if [[ -s $archive ]] && [[ -z $(find "$SUITE_LIB" -maxdepth 1 -name 'hbase-grinder-*.jar' -newer "$archive" -print -quit) ]]; then
    CDS_OPTS=("-XX:SharedArchiveFile=$archive" "-Xlog:cds*=off")
    return 0
  fi
  mkdir -p "$SUITE_LIB/cds" 2> /dev/null || return 0
  rm -f "$archive"
  CDS_RECORDING=$archive.new.$BASHPID.$RANDOM
  CDS_OPTS=("-XX:ArchiveClassesAtExit=$CDS_RECORDING" "-Xlog:cds*=off")
}

# After the JVM cds_options prepared has exited with RC: its recording becomes the archive when
# it exited by itself (RC below 128), else it is removed.
cds_recorded() {
  local rc=$1
  [[ -n ${CDS_RECORDING:-} ]] || return 0
  if ((rc < 128)) && [[ -s $CDS_RECORDING ]]; then
    mv -f "$CDS_RECORDING" "${CDS_RECORDING%.new.*}"
  else
    rm -f "$CDS_RECORDING"
  fi
  CDS_RECORDING=""
}
