seed = 42
parts = []
for _ in range(300000):
    seed = (seed * 16807) % 2147483647
    parts.append("w" + str(seed % 5000) + " ")
text = "".join(parts)
counts = {}
for w in text.split():
    counts[w] = counts.get(w, 0) + 1
print(len(counts), counts["w1"])
