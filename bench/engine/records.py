class Body:
    __slots__ = ("x", "y", "vx", "vy", "mass", "hits")

    def __init__(self, i):
        self.x = (i * 37) % 1000
        self.y = (i * 91) % 1000
        self.vx = i % 7 - 3
        self.vy = i % 5 - 2
        self.mass = 1 + i % 4
        self.hits = 0


def step(bodies):
    for b in bodies:
        x = b.x + b.vx
        if x < 0 or x > 999:
            b.vx = -b.vx
            b.hits += 1
            x = b.x + b.vx
        b.x = x
        y = b.y + b.vy
        if y < 0 or y > 999:
            b.vy = -b.vy
            b.hits += 1
            y = b.y + b.vy
        b.y = y


bodies = [Body(i) for i in range(1000)]
for _ in range(3000):
    step(bodies)
print(sum(b.mass * b.x + b.y + b.hits for b in bodies))
