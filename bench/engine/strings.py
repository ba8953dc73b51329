import io
n = 0
for _ in range(10):
    out = io.StringIO()
    for i in range(1, 200001):
        out.write(str(i)); out.write(" "); out.write("x"); out.write(",")
    n += len(out.getvalue())
print(n)
