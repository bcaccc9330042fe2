#include <stdio.h>

int main(void) {
	return undefined_name;
}
