-- nbody (AWFY, after the Computer Language Benchmarks Game): the Jovian
-- planets and the sun orbiting, advanced in steps of 0.01 years, the
-- system's energy checked at the end; bodies are objects with float fields
local sqrt = math.sqrt

local PI = 3.141592653589793
local SOLAR_MASS = 4.0 * PI * PI
local DAYS_PER_YEAR = 365.24

local Body = {}
Body.__index = Body

function Body.new(x, y, z, vx, vy, vz, mass)
  return setmetatable({
    x = x, y = y, z = z,
    vx = vx * DAYS_PER_YEAR,
    vy = vy * DAYS_PER_YEAR,
    vz = vz * DAYS_PER_YEAR,
    mass = mass * SOLAR_MASS,
  }, Body)
end

function Body:offset_momentum(px, py, pz)
  self.vx = 0.0 - (px / SOLAR_MASS)
  self.vy = 0.0 - (py / SOLAR_MASS)
  self.vz = 0.0 - (pz / SOLAR_MASS)
end

local function jupiter()
  return Body.new(4.84143144246472090e+00, -1.16032004402742839e+00,
                  -1.03622044471123109e-01, 1.66007664274403694e-03,
                  7.69901118419740425e-03, -6.90460016972063023e-05,
                  9.54791938424326609e-04)
end

local function saturn()
  return Body.new(8.34336671824457987e+00, 4.12479856412430479e+00,
                  -4.03523417114321381e-01, -2.76742510726862411e-03,
                  4.99852801234917238e-03, 2.30417297573763929e-05,
                  2.85885980666130812e-04)
end

local function uranus()
  return Body.new(1.28943695621391310e+01, -1.51111514016986312e+01,
                  -2.23307578892655734e-01, 2.96460137564761618e-03,
                  2.37847173959480950e-03, -2.96589568540237556e-05,
                  4.36624404335156298e-05)
end

local function neptune()
  return Body.new(1.53796971148509165e+01, -2.59193146099879641e+01,
                  1.79258772950371181e-01, 2.68067772490389322e-03,
                  1.62824170038242295e-03, -9.51592254519715870e-05,
                  5.15138902046611451e-05)
end

local function sun()
  return Body.new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
end

local NBodySystem = {}
NBodySystem.__index = NBodySystem

local function create_bodies()
  local bodies = {sun(), jupiter(), saturn(), uranus(), neptune()}
  local px, py, pz = 0.0, 0.0, 0.0
  for i = 1, #bodies do
    local b = bodies[i]
    px = px + b.vx * b.mass
    py = py + b.vy * b.mass
    pz = pz + b.vz * b.mass
  end
  bodies[1]:offset_momentum(px, py, pz)
  return bodies
end

function NBodySystem.new()
  return setmetatable({bodies = create_bodies()}, NBodySystem)
end

function NBodySystem:advance(dt)
  local bodies = self.bodies
  for i = 1, #bodies do
    local ib = bodies[i]
    for j = i + 1, #bodies do
      local jb = bodies[j]
      local dx = ib.x - jb.x
      local dy = ib.y - jb.y
      local dz = ib.z - jb.z
      local d2 = dx * dx + dy * dy + dz * dz
      local distance = sqrt(d2)
      local mag = dt / (d2 * distance)
      ib.vx = ib.vx - dx * jb.mass * mag
      ib.vy = ib.vy - dy * jb.mass * mag
      ib.vz = ib.vz - dz * jb.mass * mag
      jb.vx = jb.vx + dx * ib.mass * mag
      jb.vy = jb.vy + dy * ib.mass * mag
      jb.vz = jb.vz + dz * ib.mass * mag
    end
  end
  for i = 1, #bodies do
    local b = bodies[i]
    b.x = b.x + dt * b.vx
    b.y = b.y + dt * b.vy
    b.z = b.z + dt * b.vz
  end
end

function NBodySystem:energy()
  local e = 0.0
  local bodies = self.bodies
  for i = 1, #bodies do
    local ib = bodies[i]
    e = e + 0.5 * ib.mass * (ib.vx * ib.vx + ib.vy * ib.vy + ib.vz * ib.vz)
    for j = i + 1, #bodies do
      local jb = bodies[j]
      local dx = ib.x - jb.x
      local dy = ib.y - jb.y
      local dz = ib.z - jb.z
      local distance = sqrt(dx * dx + dy * dy + dz * dz)
      e = e - (ib.mass * jb.mass) / distance
    end
  end
  return e
end

local function verify_result(result, steps)
  if steps == 250000 then return result == -0.1690859889909308
  elseif steps == 1 then return result == -0.16907495402506745
  else error(('nbody: no expected result for %d steps: %.17g'):format(steps, result))
  end
end

local function run(steps)
  local system = NBodySystem.new()
  for _ = 1, steps do
    system:advance(0.01)
  end
  return verify_result(system:energy(), steps)
end

if not run(250000) then error('nbody: wrong result') end
print('nbody ok')
