-- richards: Martin Richards' simulation of an operating system's task
-- scheduler (an idle task, a worker, two handlers and two devices passing
-- packets), as the Are We Fast Yet suite has it. Classes are metatables;
-- each task's behaviour is a closure held in its control block.

local ITERATIONS = 20

local IDLER, WORKER, HANDLER_A, HANDLER_B, DEVICE_A, DEVICE_B = 1, 2, 3, 4, 5, 6
local DEVICE_PACKET_KIND, WORK_PACKET_KIND = 0, 1
local DATA_SIZE = 4

-- Lua 5.4 has the operator, LuaJIT (Lua 5.1) the bit library; the
-- operator is compiled at run time so that LuaJIT's parser never sees it.
local bxor = bit and bit.bxor or load('return function(a, b) return a ~ b end')()

local function append(packet, queue_head)
  packet.link = nil
  if queue_head == nil then return packet end
  local mouse = queue_head
  local link = mouse.link
  while link ~= nil do
    mouse = link
    link = mouse.link
  end
  mouse.link = packet
  return queue_head
end

local Packet = {}
Packet.__index = Packet

function Packet.new(link, identity, kind)
  return setmetatable({link = link, identity = identity, kind = kind,
                       datum = 1, data = {0, 0, 0, 0}}, Packet)
end

local HandlerData = {}
HandlerData.__index = HandlerData

function HandlerData.new()
  return setmetatable({work_in = nil, device_in = nil}, HandlerData)
end

function HandlerData:work_in_add(packet)
  self.work_in = append(packet, self.work_in)
end

function HandlerData:device_in_add(packet)
  self.device_in = append(packet, self.device_in)
end

-- A task's state: three flags, set together by the transitions below.
local TaskState = {}
TaskState.__index = TaskState

function TaskState.new()
  return setmetatable({packet_pending = true, task_waiting = false,
                       task_holding = false}, TaskState)
end

function TaskState:running()
  self.packet_pending, self.task_waiting, self.task_holding = false, false, false
  return self
end

function TaskState:waiting()
  self.packet_pending, self.task_waiting, self.task_holding = false, true, false
  return self
end

function TaskState:waiting_with_packet()
  self.packet_pending, self.task_waiting, self.task_holding = true, true, false
  return self
end

function TaskState:packet_pending_now()
  self.packet_pending, self.task_waiting, self.task_holding = true, false, false
  return self
end

function TaskState:is_holding_or_waiting()
  return self.task_holding or (not self.packet_pending and self.task_waiting)
end

function TaskState:is_waiting_with_packet()
  return self.packet_pending and self.task_waiting and not self.task_holding
end

local Tcb = setmetatable({}, {__index = TaskState})
Tcb.__index = Tcb

function Tcb.new(link, identity, priority, input, state, data, fn)
  return setmetatable({link = link, identity = identity, priority = priority,
                       input = input, packet_pending = state.packet_pending,
                       task_waiting = state.task_waiting,
                       task_holding = state.task_holding,
                       data = data, fn = fn}, Tcb)
end

function Tcb:add_input_and_check_priority(packet, old_task)
  if self.input == nil then
    self.input = packet
    self.packet_pending = true
    if self.priority > old_task.priority then return self end
  else
    self.input = append(packet, self.input)
  end
  return old_task
end

function Tcb:run_task()
  local message
  if self:is_waiting_with_packet() then
    message = self.input
    self.input = message.link
    if self.input == nil then
      self:running()
    else
      self:packet_pending_now()
    end
  end
  return self.fn(message, self.data)
end

local Scheduler = {}
Scheduler.__index = Scheduler

function Scheduler.new()
  return setmetatable({task_list = nil, current_task = nil,
                       current_task_identity = 0,
                       task_table = {false, false, false, false, false, false},
                       queue_count = 0, hold_count = 0}, Scheduler)
end

function Scheduler:create_task(identity, priority, work, state, data, fn)
  local tcb = Tcb.new(self.task_list, identity, priority, work, state, data, fn)
  self.task_list = tcb
  self.task_table[identity] = tcb
end

function Scheduler:create_device(identity, priority, work, state)
  self:create_task(identity, priority, work, state, {pending = nil},
    function(packet, data)
      if packet == nil then
        packet = data.pending
        if packet == nil then return self:wait() end
        data.pending = nil
        return self:queue_packet(packet)
      end
      data.pending = packet
      return self:hold_self()
    end)
end

function Scheduler:create_handler(identity, priority, work, state)
  self:create_task(identity, priority, work, state, HandlerData.new(),
    function(packet, data)
      if packet ~= nil then
        if packet.kind == WORK_PACKET_KIND then
          data:work_in_add(packet)
        else
          data:device_in_add(packet)
        end
      end
      local work_packet = data.work_in
      if work_packet == nil then return self:wait() end
      local count = work_packet.datum
      if count > DATA_SIZE then
        data.work_in = work_packet.link
        return self:queue_packet(work_packet)
      end
      local device_packet = data.device_in
      if device_packet == nil then return self:wait() end
      data.device_in = device_packet.link
      device_packet.datum = work_packet.data[count]
      work_packet.datum = count + 1
      return self:queue_packet(device_packet)
    end)
end

function Scheduler:create_idler(identity, priority, work, state)
  self:create_task(identity, priority, work, state, {control = 1, count = 10000},
    function(_, data)
      data.count = data.count - 1
      if data.count == 0 then return self:hold_self() end
      if data.control % 2 == 0 then
        data.control = math.floor(data.control / 2)
        return self:release(DEVICE_A)
      end
      data.control = bxor(math.floor((data.control - 1) / 2), 53256)
      return self:release(DEVICE_B)
    end)
end

function Scheduler:create_worker(identity, priority, work, state)
  self:create_task(identity, priority, work, state,
    {destination = HANDLER_A, count = 0},
    function(packet, data)
      if packet == nil then return self:wait() end
      data.destination = (data.destination == HANDLER_A) and HANDLER_B or HANDLER_A
      packet.identity = data.destination
      packet.datum = 1
      for i = 1, DATA_SIZE do
        data.count = data.count + 1
        if data.count > 26 then data.count = 1 end
        packet.data[i] = 65 + data.count - 1
      end
      return self:queue_packet(packet)
    end)
end

function Scheduler:find_task(identity)
  local t = self.task_table[identity]
  if not t then error('find_task failed') end
  return t
end

function Scheduler:hold_self()
  self.hold_count = self.hold_count + 1
  local current_task = self.current_task
  current_task.task_holding = true
  return current_task.link
end

function Scheduler:queue_packet(packet)
  local task = self:find_task(packet.identity)
  self.queue_count = self.queue_count + 1
  packet.link = nil
  packet.identity = self.current_task_identity
  return task:add_input_and_check_priority(packet, self.current_task)
end

function Scheduler:release(identity)
  local task = self:find_task(identity)
  task.task_holding = false
  if task.priority > self.current_task.priority then return task end
  return self.current_task
end

function Scheduler:wait()
  local current_task = self.current_task
  current_task.task_waiting = true
  return current_task
end

function Scheduler:schedule()
  self.current_task = self.task_list
  while self.current_task ~= nil do
    if self.current_task:is_holding_or_waiting() then
      self.current_task = self.current_task.link
    else
      self.current_task_identity = self.current_task.identity
      self.current_task = self.current_task:run_task()
    end
  end
end

function Scheduler:start()
  self:create_idler(IDLER, 0, nil, TaskState.new():running())
  local queue = Packet.new(nil, WORKER, WORK_PACKET_KIND)
  queue = Packet.new(queue, WORKER, WORK_PACKET_KIND)
  self:create_worker(WORKER, 1000, queue, TaskState.new():waiting_with_packet())

  queue = Packet.new(nil, DEVICE_A, DEVICE_PACKET_KIND)
  queue = Packet.new(queue, DEVICE_A, DEVICE_PACKET_KIND)
  queue = Packet.new(queue, DEVICE_A, DEVICE_PACKET_KIND)
  self:create_handler(HANDLER_A, 2000, queue, TaskState.new():waiting_with_packet())

  queue = Packet.new(nil, DEVICE_B, DEVICE_PACKET_KIND)
  queue = Packet.new(queue, DEVICE_B, DEVICE_PACKET_KIND)
  queue = Packet.new(queue, DEVICE_B, DEVICE_PACKET_KIND)
  self:create_handler(HANDLER_B, 3000, queue, TaskState.new():waiting_with_packet())

  self:create_device(DEVICE_A, 4000, nil, TaskState.new():waiting())
  self:create_device(DEVICE_B, 5000, nil, TaskState.new():waiting())

  self:schedule()
  return self.queue_count == 23246 and self.hold_count == 9297
end

for _ = 1, ITERATIONS do
  if not Scheduler.new():start() then error('richards: wrong result') end
end
print('richards ok')
