#include <cstdio>
int main() { std::puts("ictk"); return 0; }
