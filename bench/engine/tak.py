import sys
sys.setrecursionlimit(10000)
def tak(x, y, z):
    return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y)) if y < x else z
print(tak(24, 16, 8))
