#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>
static double now(clockid_t c){struct timespec t;clock_gettime(c,&t);return t.tv_sec*1e9+t.tv_nsec;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int cpu=atoi(argv[1]); int secs=atoi(argv[2]);
  cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu,&s); sched_setaffinity(0,sizeof s,&s);
  static unsigned buf[1<<14]; volatile unsigned sink=0;
  double t0=now(CLOCK_MONOTONIC);
  for(int sec=0;sec<secs;sec++){
    double v[50]; int n=0;
    while(now(CLOCK_MONOTONIC)-t0 < (sec+1)*1e9){
      double c0=now(CLOCK_THREAD_CPUTIME_ID);
      unsigned x=1; for(int i=0;i<20000;i++){ x = x*1103515245u+12345u; buf[x&((1<<14)-1)]+=x; }
      sink+=x;
      double c1=now(CLOCK_THREAD_CPUTIME_ID);
      if(n<50) v[n++]=(c1-c0)/1000.0;
      usleep(20000);
    }
    qsort(v,n,sizeof(double),cmp);
    printf("%d %.0f %.1f %.1f %.1f %d\n",cpu,now(CLOCK_REALTIME)/1e6,v[0],v[n/2],v[n-1],n); fflush(stdout);
  }
  return 0;
}
