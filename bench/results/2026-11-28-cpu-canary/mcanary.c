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
  size_t N=(64u<<20)/sizeof(size_t); size_t *p=malloc(N*sizeof(size_t));
  for(size_t i=0;i<N;i++) p[i]=i;
  srand(42); for(size_t i=N-1;i>0;i--){ size_t j=((size_t)rand()<<16 ^ rand())%(i+1); size_t t=p[i];p[i]=p[j];p[j]=t; }
  /* p is a random permutation; chase it as a cycle-ish walk */
  unsigned buf[1<<14]={0}; volatile size_t sink=0; size_t idx=0;
  double t0=now(CLOCK_MONOTONIC);
  for(int sec=0;sec<secs;sec++){
    double a[50],m[50]; int n=0;
    while(now(CLOCK_MONOTONIC)-t0 < (sec+1)*1e9){
      double c0=now(CLOCK_THREAD_CPUTIME_ID);
      unsigned x=1; for(int i=0;i<20000;i++){ x = x*1103515245u+12345u; buf[x&((1<<14)-1)]+=x; }
      double c1=now(CLOCK_THREAD_CPUTIME_ID);
      for(int i=0;i<500;i++) idx=p[idx];
      double c2=now(CLOCK_THREAD_CPUTIME_ID);
      sink+=x+idx;
      if(n<50){a[n]=(c1-c0)/1000.0; m[n]=(c2-c1)/1000.0; n++;}
      usleep(20000);
    }
    qsort(a,n,sizeof(double),cmp); qsort(m,n,sizeof(double),cmp);
    printf("%d %.0f %.1f %.1f %d\n",cpu,now(CLOCK_REALTIME)/1e6,a[n/2],m[n/2],n); fflush(stdout);
  }
  return 0;
}
