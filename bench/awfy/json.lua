-- json: a JSON parser after the minimal-json library, as the Are We Fast
-- Yet suite has it: reads a document one character at a time into value
-- objects (arrays and objects kept in Vectors, an object's names indexed by
-- a small hash table) and checks the shape of what it read. The document is
-- a made-up UI-protocol message of 156 operations, written for this
-- benchmark in the shape of the suite's own.

local ITERATIONS = 50

-- The som library's growable array: 1-based, first and last index.
local Vector = {}
Vector.__index = Vector

function Vector.new(size)
  return setmetatable({storage = {}, capacity = size or 50,
                       first_idx = 1, last_idx = 1}, Vector)
end

function Vector:at(idx)
  if idx > self.capacity then return nil end
  return self.storage[idx]
end

function Vector:append(elem)
  if self.last_idx > self.capacity then
    self.capacity = 2 * self.capacity
  end
  self.storage[self.last_idx] = elem
  self.last_idx = self.last_idx + 1
end

function Vector:size()
  return self.last_idx - self.first_idx
end

function Vector:is_empty()
  return self.last_idx == self.first_idx
end

-- Maps a name to its index in an object, hashing names by their length
-- alone as the suite does; a colliding name is not supported.
local HashIndexTable = {}
HashIndexTable.__index = HashIndexTable

function HashIndexTable.new()
  local t = {}
  for i = 1, 32 do t[i] = 0 end
  return setmetatable({hash_table = t}, HashIndexTable)
end

local function hash_slot_for(name)
  return (#name * 1402589) % 32 + 1
end

function HashIndexTable:add(name, index)
  -- stored plus one: 0 stands for empty
  if index < 255 then
    self.hash_table[hash_slot_for(name)] = (index + 1) % 256
  else
    self.hash_table[hash_slot_for(name)] = 0
  end
end

function HashIndexTable:get(name)
  return self.hash_table[hash_slot_for(name)] % 256 - 1
end

-- The value classes. Every value answers the is_ questions; the base
-- class answers no.
local JsonValue = {}
JsonValue.__index = JsonValue

function JsonValue:is_object() return false end
function JsonValue:is_array() return false end
function JsonValue:is_number() return false end
function JsonValue:is_string() return false end
function JsonValue:is_boolean() return false end
function JsonValue:is_true() return false end
function JsonValue:is_false() return false end
function JsonValue:is_null() return false end

local function class()
  local c = setmetatable({}, JsonValue)
  c.__index = c
  return c
end

local JsonArray = class()

function JsonArray.new()
  return setmetatable({values = Vector.new()}, JsonArray)
end

function JsonArray:add(value)
  if value == nil then error('value is null') end
  self.values:append(value)
  return self
end

function JsonArray:size() return self.values:size() end
function JsonArray:get(index) return self.values:at(index) end
function JsonArray:is_array() return true end

local JsonLiteral = class()

function JsonLiteral.new(value)
  return setmetatable({value = value, null = value == 'null',
                       yes = value == 'true', no = value == 'false'},
                      JsonLiteral)
end

function JsonLiteral:is_null() return self.null end
function JsonLiteral:is_true() return self.yes end
function JsonLiteral:is_false() return self.no end
function JsonLiteral:is_boolean() return self.yes or self.no end

local NULL, TRUE, FALSE =
  JsonLiteral.new('null'), JsonLiteral.new('true'), JsonLiteral.new('false')

local JsonNumber = class()

function JsonNumber.new(s)
  if s == nil then error('string is null') end
  return setmetatable({string = s}, JsonNumber)
end

function JsonNumber:is_number() return true end

local JsonString = class()

function JsonString.new(s)
  if s == nil then error('string is null') end
  return setmetatable({string = s}, JsonString)
end

function JsonString:is_string() return true end

local JsonObject = class()

function JsonObject.new()
  return setmetatable({names = Vector.new(), values = Vector.new(),
                       table = HashIndexTable.new()}, JsonObject)
end

function JsonObject:add(name, value)
  if name == nil then error('name is null') end
  if value == nil then error('value is null') end
  self.names:append(name)
  self.values:append(value)
  self.table:add(name, self.names:size())
  return self
end

function JsonObject:index_of(name)
  local index = self.table:get(name)
  if index ~= -1 and name == self.names:at(index) then return index end
  error('NotImplemented')
end

function JsonObject:get(name)
  if name == nil then error('name is null') end
  local index = self:index_of(name)
  if index == -1 then return nil end
  return self.values:at(index)
end

function JsonObject:size() return self.names:size() end
function JsonObject:is_object() return true end

local Parser = {}
Parser.__index = Parser

function Parser.new(input)
  return setmetatable({input = input, index = 0, line = 1, column = 0,
                       current = nil, capture_start = -1,
                       capture_buffer = ''}, Parser)
end

function Parser:read()
  if self.current == '\n' then
    self.line = self.line + 1
    self.column = 0
  end
  self.index = self.index + 1
  if self.index <= #self.input then
    self.current = self.input:sub(self.index, self.index)
  else
    self.current = nil
  end
end

function Parser:error(message)
  return ('JSON:%d:%d (%d): %s'):format(self.line, self.column - 1,
                                        self.index, message)
end

function Parser:expected(what)
  if self:is_end_of_text() then
    return self:error('Unexpected end of input')
  end
  return self:error('Expected ' .. what)
end

function Parser:is_white_space()
  local c = self.current
  return c == ' ' or c == '\t' or c == '\n' or c == '\r'
end

function Parser:is_digit()
  local c = self.current
  return c == '0' or c == '1' or c == '2' or c == '3' or c == '4' or
         c == '5' or c == '6' or c == '7' or c == '8' or c == '9'
end

function Parser:is_end_of_text()
  return self.current == nil
end

function Parser:skip_white_space()
  while self:is_white_space() do self:read() end
end

function Parser:read_char(ch)
  if self.current ~= ch then return false end
  self:read()
  return true
end

function Parser:read_required_char(ch)
  if not self:read_char(ch) then error(self:expected("'" .. ch .. "'")) end
end

function Parser:read_digit()
  if not self:is_digit() then return false end
  self:read()
  return true
end

function Parser:start_capture()
  self.capture_start = self.index
end

function Parser:capture_end()
  if self.current == nil then return self.index end
  return self.index - 1
end

function Parser:pause_capture()
  self.capture_buffer = self.capture_buffer ..
                        self.input:sub(self.capture_start, self:capture_end())
  self.capture_start = -1
end

function Parser:end_capture()
  local piece = self.input:sub(self.capture_start, self:capture_end())
  local captured
  if self.capture_buffer == '' then
    captured = piece
  else
    captured = self.capture_buffer .. piece
    self.capture_buffer = ''
  end
  self.capture_start = -1
  return captured
end

local ESCAPES = {['"'] = '"', ['/'] = '/', ['\\'] = '\\', b = '\b',
                 f = '\f', n = '\n', r = '\r', t = '\t'}

function Parser:read_escape()
  self:read()
  local ch = ESCAPES[self.current]
  if ch == nil then error(self:expected('valid escape sequence')) end
  self.capture_buffer = self.capture_buffer .. ch
  self:read()
end

function Parser:read_string_internal()
  self:read()
  self:start_capture()
  while self.current ~= '"' do
    if self.current == '\\' then
      self:pause_capture()
      self:read_escape()
      self:start_capture()
    else
      self:read()
    end
  end
  local s = self:end_capture()
  self:read()
  return s
end

function Parser:read_name()
  if self.current ~= '"' then error(self:expected('name')) end
  return self:read_string_internal()
end

function Parser:read_null()
  self:read()
  self:read_required_char('u')
  self:read_required_char('l')
  self:read_required_char('l')
  return NULL
end

function Parser:read_true()
  self:read()
  self:read_required_char('r')
  self:read_required_char('u')
  self:read_required_char('e')
  return TRUE
end

function Parser:read_false()
  self:read()
  self:read_required_char('a')
  self:read_required_char('l')
  self:read_required_char('s')
  self:read_required_char('e')
  return FALSE
end

function Parser:read_fraction()
  if not self:read_char('.') then return false end
  if not self:read_digit() then error(self:expected('digit')) end
  while self:read_digit() do end
  return true
end

function Parser:read_exponent()
  if not self:read_char('e') and not self:read_char('E') then return false end
  if not self:read_char('+') then self:read_char('-') end
  if not self:read_digit() then error(self:expected('digit')) end
  while self:read_digit() do end
  return true
end

function Parser:read_number()
  self:start_capture()
  self:read_char('-')
  local first_digit = self.current
  if not self:read_digit() then error(self:expected('digit')) end
  if first_digit ~= '0' then
    while self:read_digit() do end
  end
  self:read_fraction()
  self:read_exponent()
  return JsonNumber.new(self:end_capture())
end

function Parser:read_array()
  self:read()
  local array = JsonArray.new()
  self:skip_white_space()
  if self:read_char(']') then return array end
  repeat
    self:skip_white_space()
    array:add(self:read_value())
    self:skip_white_space()
  until not self:read_char(',')
  if not self:read_char(']') then error(self:expected("',' or ']'")) end
  return array
end

function Parser:read_object()
  self:read()
  local object = JsonObject.new()
  self:skip_white_space()
  if self:read_char('}') then return object end
  repeat
    self:skip_white_space()
    local name = self:read_name()
    self:skip_white_space()
    if not self:read_char(':') then error(self:expected("':'")) end
    self:skip_white_space()
    object:add(name, self:read_value())
    self:skip_white_space()
  until not self:read_char(',')
  if not self:read_char('}') then error(self:expected("',' or '}'")) end
  return object
end

function Parser:read_value()
  local c = self.current
  if c == 'n' then
    return self:read_null()
  elseif c == 't' then
    return self:read_true()
  elseif c == 'f' then
    return self:read_false()
  elseif c == '"' then
    return JsonString.new(self:read_string_internal())
  elseif c == '[' then
    return self:read_array()
  elseif c == '{' then
    return self:read_object()
  elseif c == '-' or c == '0' or c == '1' or c == '2' or c == '3' or
         c == '4' or c == '5' or c == '6' or c == '7' or c == '8' or
         c == '9' then
    return self:read_number()
  end
  error(self:expected('value'))
end

function Parser:parse()
  self:read()
  self:skip_white_space()
  local result = self:read_value()
  self:skip_white_space()
  if not self:is_end_of_text() then error(self:error('Unexpected character')) end
  return result
end

local DOCUMENT = [==[{"head":{"requestCounter":4},"operations":[["remove","n12"],["update","n3",{"focused":"n60"}],["update","n7",{"theme":"theme_dark"}],["make","n41","ui.Panel",{"owner":"n3","flags":["PLAIN"],"box":[0,0,1280,720],"kids":["n42","n43"],"order":-1,"inner":[0,0,1280,720]}],["make","n42","ui.Caption",{"owner":"n41","flags":["PLAIN"],"box":[12,24,200,30],"order":-1,"label":"Destinations \"2024\"","note":"line one\nline two"}],["make","n43","ui.Table",{"owner":"n41","flags":["SINGLE","FRAMED"],"look":"list","indent":0,"tree":-1,"markup":false,"ratio":1.5e2,"scale":-0.25}],["watch","n43",{"Pick":true,"Open":true}],["make","n41","ui.Row",{"owner":"n43","at":0,"cells":["1","OSL","Oslo Harbour","Harbour","42","1"],"colours":[null,null,null,null,true,null]}],["make","n42","ui.Row",{"owner":"n43","at":1,"cells":["2","LIM","Lima Airport","Airport","20","1"],"colours":[null,null,[202,24,37,255],null,null,null]}],["make","n43","ui.Row",{"owner":"n43","at":2,"cells":["3","QUI","Quito Station","Station","69","1"],"colours":[null,null,[48,187,29,255],null,null,null]}],["make","n44","ui.Row",{"owner":"n43","at":3,"cells":["4","PER","Perth Depot","Depot","65","1"],"colours":[null,null,null,null,null,null]}],["make","n45","ui.Row",{"owner":"n43","at":4,"cells":["5","ACC","Accra Museum","Museum","28","1"],"colours":[null,null,[19,44,222,255],null,null,null]}],["make","n46","ui.Row",{"owner":"n43","at":5,"cells":["6","HAN","Hanoi Market","Market","54","1"],"colours":[null,null,[35,123,46,255],null,true,null]}],["make","n47","ui.Row",{"owner":"n43","at":6,"cells":["7","TUR","Turku Harbour","Harbour","71","1"],"colours":[null,null,null,null,null,null]}],["make","n48","ui.Row",{"owner":"n43","at":7,"cells":["8","POR","Porto Airport","Airport","55","1"],"colours":[null,null,[30,63,114,255],null,null,null]}],["make","n49","ui.Row",{"owner":"n43","at":8,"cells":["9","COR","Cork Station","Station","81","1"],"colours":[null,null,[31,203,25,255],null,null,null]}],["make","n50","ui.Row",{"owner":"n43","at":9,"cells":["10","GRA","Graz Depot","Depot","29","1"],"colours":[null,null,null,null,null,null]}],["make","n51","ui.Row",{"owner":"n43","at":10,"cells":["11","BER","Bergen Museum","Museum","6","1"],"colours":[null,null,[68,148,214,255],null,true,null]}],["make","n52","ui.Row",{"owner":"n43","at":11,"cells":["12","MAL","Malmo Market","Market","19","1"],"colours":[null,null,[60,157,92,255],null,null,null]}],["make","n53","ui.Row",{"owner":"n43","at":12,"cells":["13","RIG","Riga Harbour","Harbour","14","1"],"colours":[null,null,null,null,null,null]}],["make","n54","ui.Row",{"owner":"n43","at":13,"cells":["14","SPL","Split Airport","Airport","75","1"],"colours":[null,null,[96,190,49,255],null,null,null]}],["make","n55","ui.Row",{"owner":"n43","at":14,"cells":["15","GHE","Ghent Station","Station","71","1"],"colours":[null,null,[32,30,105,255],null,null,null]}],["make","n56","ui.Row",{"owner":"n43","at":15,"cells":["16","OSL","Oslo Depot","Depot","64","1"],"colours":[null,null,null,null,true,null]}],["make","n57","ui.Row",{"owner":"n43","at":16,"cells":["17","LIM","Lima Museum","Museum","88","1"],"colours":[null,null,[218,160,238,255],null,null,null]}],["make","n58","ui.Row",{"owner":"n43","at":17,"cells":["18","QUI","Quito Market","Market","75","1"],"colours":[null,null,[232,185,153,255],null,null,null]}],["make","n59","ui.Row",{"owner":"n43","at":18,"cells":["19","PER","Perth Harbour","Harbour","32","1"],"colours":[null,null,null,null,null,null]}],["make","n60","ui.Row",{"owner":"n43","at":19,"cells":["20","ACC","Accra Airport","Airport","24","1"],"colours":[null,null,[124,41,153,255],null,null,null]}],["make","n61","ui.Row",{"owner":"n43","at":20,"cells":["21","HAN","Hanoi Station","Station","68","2"],"colours":[null,null,[253,175,229,255],null,true,null]}],["make","n62","ui.Row",{"owner":"n43","at":21,"cells":["22","TUR","Turku Depot","Depot","37","2"],"colours":[null,null,null,null,null,null]}],["make","n63","ui.Row",{"owner":"n43","at":22,"cells":["23","POR","Porto Museum","Museum","78","2"],"colours":[null,null,[37,60,214,255],null,null,null]}],["make","n64","ui.Row",{"owner":"n43","at":23,"cells":["24","COR","Cork Market","Market","22","2"],"colours":[null,null,[175,77,250,255],null,null,null]}],["make","n65","ui.Row",{"owner":"n43","at":24,"cells":["25","GRA","Graz Harbour","Harbour","54","2"],"colours":[null,null,null,null,null,null]}],["make","n66","ui.Row",{"owner":"n43","at":25,"cells":["26","BER","Bergen Airport","Airport","6","2"],"colours":[null,null,[39,160,174,255],null,true,null]}],["make","n67","ui.Row",{"owner":"n43","at":26,"cells":["27","MAL","Malmo Station","Station","89","2"],"colours":[null,null,[179,254,233,255],null,null,null]}],["make","n68","ui.Row",{"owner":"n43","at":27,"cells":["28","RIG","Riga Depot","Depot","9","2"],"colours":[null,null,null,null,null,null]}],["make","n69","ui.Row",{"owner":"n43","at":28,"cells":["29","SPL","Split Museum","Museum","12","2"],"colours":[null,null,[138,242,33,255],null,null,null]}],["make","n70","ui.Row",{"owner":"n43","at":29,"cells":["30","GHE","Ghent Market","Market","8","2"],"colours":[null,null,[158,228,145,255],null,null,null]}],["make","n71","ui.Row",{"owner":"n43","at":30,"cells":["31","OSL","Oslo Harbour","Harbour","92","2"],"colours":[null,null,null,null,true,null]}],["make","n72","ui.Row",{"owner":"n43","at":31,"cells":["32","LIM","Lima Airport","Airport","50","2"],"colours":[null,null,[177,11,236,255],null,null,null]}],["make","n73","ui.Row",{"owner":"n43","at":32,"cells":["33","QUI","Quito Station","Station","46","2"],"colours":[null,null,[86,59,252,255],null,null,null]}],["make","n74","ui.Row",{"owner":"n43","at":33,"cells":["34","PER","Perth Depot","Depot","8","2"],"colours":[null,null,null,null,null,null]}],["make","n75","ui.Row",{"owner":"n43","at":34,"cells":["35","ACC","Accra Museum","Museum","28","2"],"colours":[null,null,[147,66,126,255],null,null,null]}],["make","n76","ui.Row",{"owner":"n43","at":35,"cells":["36","HAN","Hanoi Market","Market","51","2"],"colours":[null,null,[200,254,41,255],null,true,null]}],["make","n77","ui.Row",{"owner":"n43","at":36,"cells":["37","TUR","Turku Harbour","Harbour","22","2"],"colours":[null,null,null,null,null,null]}],["make","n78","ui.Row",{"owner":"n43","at":37,"cells":["38","POR","Porto Airport","Airport","58","2"],"colours":[null,null,[205,142,70,255],null,null,null]}],["make","n79","ui.Row",{"owner":"n43","at":38,"cells":["39","COR","Cork Station","Station","56","2"],"colours":[null,null,[142,212,183,255],null,null,null]}],["make","n80","ui.Row",{"owner":"n43","at":39,"cells":["40","GRA","Graz Depot","Depot","88","2"],"colours":[null,null,null,null,null,null]}],["make","n81","ui.Row",{"owner":"n43","at":40,"cells":["41","BER","Bergen Museum","Museum","49","3"],"colours":[null,null,[118,77,42,255],null,true,null]}],["make","n82","ui.Row",{"owner":"n43","at":41,"cells":["42","MAL","Malmo Market","Market","23","3"],"colours":[null,null,[77,118,119,255],null,null,null]}],["make","n83","ui.Row",{"owner":"n43","at":42,"cells":["43","RIG","Riga Harbour","Harbour","2","3"],"colours":[null,null,null,null,null,null]}],["make","n84","ui.Row",{"owner":"n43","at":43,"cells":["44","SPL","Split Airport","Airport","63","3"],"colours":[null,null,[93,134,144,255],null,null,null]}],["make","n85","ui.Row",{"owner":"n43","at":44,"cells":["45","GHE","Ghent Station","Station","1","3"],"colours":[null,null,[74,214,189,255],null,null,null]}],["make","n86","ui.Row",{"owner":"n43","at":45,"cells":["46","OSL","Oslo Depot","Depot","79","3"],"colours":[null,null,null,null,true,null]}],["make","n87","ui.Row",{"owner":"n43","at":46,"cells":["47","LIM","Lima Museum","Museum","73","3"],"colours":[null,null,[163,64,27,255],null,null,null]}],["make","n88","ui.Row",{"owner":"n43","at":47,"cells":["48","QUI","Quito Market","Market","59","3"],"colours":[null,null,[200,203,204,255],null,null,null]}],["make","n89","ui.Row",{"owner":"n43","at":48,"cells":["49","PER","Perth Harbour","Harbour","51","3"],"colours":[null,null,null,null,null,null]}],["make","n90","ui.Row",{"owner":"n43","at":49,"cells":["50","ACC","Accra Airport","Airport","14","3"],"colours":[null,null,[246,205,31,255],null,null,null]}],["make","n91","ui.Row",{"owner":"n43","at":50,"cells":["51","HAN","Hanoi Station","Station","25","3"],"colours":[null,null,[34,106,225,255],null,true,null]}],["make","n92","ui.Row",{"owner":"n43","at":51,"cells":["52","TUR","Turku Depot","Depot","21","3"],"colours":[null,null,null,null,null,null]}],["make","n93","ui.Row",{"owner":"n43","at":52,"cells":["53","POR","Porto Museum","Museum","15","3"],"colours":[null,null,[174,26,52,255],null,null,null]}],["make","n94","ui.Row",{"owner":"n43","at":53,"cells":["54","COR","Cork Market","Market","1","3"],"colours":[null,null,[77,51,186,255],null,null,null]}],["make","n95","ui.Row",{"owner":"n43","at":54,"cells":["55","GRA","Graz Harbour","Harbour","79","3"],"colours":[null,null,null,null,null,null]}],["make","n96","ui.Row",{"owner":"n43","at":55,"cells":["56","BER","Bergen Airport","Airport","4","3"],"colours":[null,null,[36,106,192,255],null,true,null]}],["make","n97","ui.Row",{"owner":"n43","at":56,"cells":["57","MAL","Malmo Station","Station","20","3"],"colours":[null,null,[129,177,186,255],null,null,null]}],["make","n98","ui.Row",{"owner":"n43","at":57,"cells":["58","RIG","Riga Depot","Depot","61","3"],"colours":[null,null,null,null,null,null]}],["make","n99","ui.Row",{"owner":"n43","at":58,"cells":["59","SPL","Split Museum","Museum","16","3"],"colours":[null,null,[59,249,238,255],null,null,null]}],["make","n100","ui.Row",{"owner":"n43","at":59,"cells":["60","GHE","Ghent Market","Market","62","3"],"colours":[null,null,[247,159,43,255],null,null,null]}],["make","n101","ui.Row",{"owner":"n43","at":60,"cells":["61","OSL","Oslo Harbour","Harbour","19","4"],"colours":[null,null,null,null,true,null]}],["make","n102","ui.Row",{"owner":"n43","at":61,"cells":["62","LIM","Lima Airport","Airport","14","4"],"colours":[null,null,[175,135,245,255],null,null,null]}],["make","n103","ui.Row",{"owner":"n43","at":62,"cells":["63","QUI","Quito Station","Station","89","4"],"colours":[null,null,[82,11,105,255],null,null,null]}],["make","n104","ui.Row",{"owner":"n43","at":63,"cells":["64","PER","Perth Depot","Depot","68","4"],"colours":[null,null,null,null,null,null]}],["make","n105","ui.Row",{"owner":"n43","at":64,"cells":["65","ACC","Accra Museum","Museum","47","4"],"colours":[null,null,[75,13,152,255],null,null,null]}],["make","n106","ui.Row",{"owner":"n43","at":65,"cells":["66","HAN","Hanoi Market","Market","83","4"],"colours":[null,null,[46,133,187,255],null,true,null]}],["make","n107","ui.Row",{"owner":"n43","at":66,"cells":["67","TUR","Turku Harbour","Harbour","22","4"],"colours":[null,null,null,null,null,null]}],["make","n108","ui.Row",{"owner":"n43","at":67,"cells":["68","POR","Porto Airport","Airport","46","4"],"colours":[null,null,[114,168,114,255],null,null,null]}],["make","n109","ui.Row",{"owner":"n43","at":68,"cells":["69","COR","Cork Station","Station","79","4"],"colours":[null,null,[99,122,205,255],null,null,null]}],["make","n110","ui.Row",{"owner":"n43","at":69,"cells":["70","GRA","Graz Depot","Depot","95","4"],"colours":[null,null,null,null,null,null]}],["make","n111","ui.Row",{"owner":"n43","at":70,"cells":["71","BER","Bergen Museum","Museum","30","4"],"colours":[null,null,[102,252,182,255],null,true,null]}],["make","n112","ui.Row",{"owner":"n43","at":71,"cells":["72","MAL","Malmo Market","Market","94","4"],"colours":[null,null,[14,14,143,255],null,null,null]}],["make","n113","ui.Row",{"owner":"n43","at":72,"cells":["73","RIG","Riga Harbour","Harbour","61","4"],"colours":[null,null,null,null,null,null]}],["make","n114","ui.Row",{"owner":"n43","at":73,"cells":["74","SPL","Split Airport","Airport","34","4"],"colours":[null,null,[99,176,228,255],null,null,null]}],["make","n115","ui.Row",{"owner":"n43","at":74,"cells":["75","GHE","Ghent Station","Station","93","4"],"colours":[null,null,[178,186,41,255],null,null,null]}],["make","n116","ui.Row",{"owner":"n43","at":75,"cells":["76","OSL","Oslo Depot","Depot","29","4"],"colours":[null,null,null,null,true,null]}],["make","n117","ui.Row",{"owner":"n43","at":76,"cells":["77","LIM","Lima Museum","Museum","14","4"],"colours":[null,null,[116,240,100,255],null,null,null]}],["make","n118","ui.Row",{"owner":"n43","at":77,"cells":["78","QUI","Quito Market","Market","44","4"],"colours":[null,null,[104,247,0,255],null,null,null]}],["make","n119","ui.Row",{"owner":"n43","at":78,"cells":["79","PER","Perth Harbour","Harbour","62","4"],"colours":[null,null,null,null,null,null]}],["make","n120","ui.Row",{"owner":"n43","at":79,"cells":["80","ACC","Accra Airport","Airport","84","4"],"colours":[null,null,[176,43,61,255],null,null,null]}],["make","n121","ui.Row",{"owner":"n43","at":80,"cells":["81","HAN","Hanoi Station","Station","50","5"],"colours":[null,null,[102,244,91,255],null,true,null]}],["make","n122","ui.Row",{"owner":"n43","at":81,"cells":["82","TUR","Turku Depot","Depot","56","5"],"colours":[null,null,null,null,null,null]}],["make","n123","ui.Row",{"owner":"n43","at":82,"cells":["83","POR","Porto Museum","Museum","82","5"],"colours":[null,null,[170,44,202,255],null,null,null]}],["make","n124","ui.Row",{"owner":"n43","at":83,"cells":["84","COR","Cork Market","Market","60","5"],"colours":[null,null,[205,43,81,255],null,null,null]}],["make","n125","ui.Row",{"owner":"n43","at":84,"cells":["85","GRA","Graz Harbour","Harbour","22","5"],"colours":[null,null,null,null,null,null]}],["make","n126","ui.Row",{"owner":"n43","at":85,"cells":["86","BER","Bergen Airport","Airport","17","5"],"colours":[null,null,[14,77,238,255],null,true,null]}],["make","n127","ui.Row",{"owner":"n43","at":86,"cells":["87","MAL","Malmo Station","Station","84","5"],"colours":[null,null,[74,242,179,255],null,null,null]}],["make","n128","ui.Row",{"owner":"n43","at":87,"cells":["88","RIG","Riga Depot","Depot","20","5"],"colours":[null,null,null,null,null,null]}],["make","n129","ui.Row",{"owner":"n43","at":88,"cells":["89","SPL","Split Museum","Museum","71","5"],"colours":[null,null,[67,10,7,255],null,null,null]}],["make","n130","ui.Row",{"owner":"n43","at":89,"cells":["90","GHE","Ghent Market","Market","93","5"],"colours":[null,null,[52,71,222,255],null,null,null]}],["make","n131","ui.Row",{"owner":"n43","at":90,"cells":["91","OSL","Oslo Harbour","Harbour","25","5"],"colours":[null,null,null,null,true,null]}],["make","n132","ui.Row",{"owner":"n43","at":91,"cells":["92","LIM","Lima Airport","Airport","28","5"],"colours":[null,null,[14,128,108,255],null,null,null]}],["make","n133","ui.Row",{"owner":"n43","at":92,"cells":["93","QUI","Quito Station","Station","38","5"],"colours":[null,null,[123,166,132,255],null,null,null]}],["make","n134","ui.Row",{"owner":"n43","at":93,"cells":["94","PER","Perth Depot","Depot","70","5"],"colours":[null,null,null,null,null,null]}],["make","n135","ui.Row",{"owner":"n43","at":94,"cells":["95","ACC","Accra Museum","Museum","54","5"],"colours":[null,null,[67,31,181,255],null,null,null]}],["make","n136","ui.Row",{"owner":"n43","at":95,"cells":["96","HAN","Hanoi Market","Market","59","5"],"colours":[null,null,[215,66,77,255],null,true,null]}],["make","n137","ui.Row",{"owner":"n43","at":96,"cells":["97","TUR","Turku Harbour","Harbour","68","5"],"colours":[null,null,null,null,null,null]}],["make","n138","ui.Row",{"owner":"n43","at":97,"cells":["98","POR","Porto Airport","Airport","66","5"],"colours":[null,null,[9,225,93,255],null,null,null]}],["make","n139","ui.Row",{"owner":"n43","at":98,"cells":["99","COR","Cork Station","Station","78","5"],"colours":[null,null,[2,76,88,255],null,null,null]}],["make","n140","ui.Row",{"owner":"n43","at":99,"cells":["100","GRA","Graz Depot","Depot","19","5"],"colours":[null,null,null,null,null,null]}],["make","n141","ui.Row",{"owner":"n43","at":100,"cells":["101","BER","Bergen Museum","Museum","61","6"],"colours":[null,null,[61,31,166,255],null,true,null]}],["make","n142","ui.Row",{"owner":"n43","at":101,"cells":["102","MAL","Malmo Market","Market","88","6"],"colours":[null,null,[247,54,29,255],null,null,null]}],["make","n143","ui.Row",{"owner":"n43","at":102,"cells":["103","RIG","Riga Harbour","Harbour","32","6"],"colours":[null,null,null,null,null,null]}],["make","n144","ui.Row",{"owner":"n43","at":103,"cells":["104","SPL","Split Airport","Airport","25","6"],"colours":[null,null,[141,21,50,255],null,null,null]}],["make","n145","ui.Row",{"owner":"n43","at":104,"cells":["105","GHE","Ghent Station","Station","65","6"],"colours":[null,null,[231,14,32,255],null,null,null]}],["make","n146","ui.Row",{"owner":"n43","at":105,"cells":["106","OSL","Oslo Depot","Depot","57","6"],"colours":[null,null,null,null,true,null]}],["make","n147","ui.Row",{"owner":"n43","at":106,"cells":["107","LIM","Lima Museum","Museum","42","6"],"colours":[null,null,[102,141,231,255],null,null,null]}],["make","n148","ui.Row",{"owner":"n43","at":107,"cells":["108","QUI","Quito Market","Market","66","6"],"colours":[null,null,[244,126,132,255],null,null,null]}],["make","n149","ui.Row",{"owner":"n43","at":108,"cells":["109","PER","Perth Harbour","Harbour","72","6"],"colours":[null,null,null,null,null,null]}],["make","n150","ui.Row",{"owner":"n43","at":109,"cells":["110","ACC","Accra Airport","Airport","26","6"],"colours":[null,null,[229,70,213,255],null,null,null]}],["make","n151","ui.Row",{"owner":"n43","at":110,"cells":["111","HAN","Hanoi Station","Station","16","6"],"colours":[null,null,[200,226,161,255],null,true,null]}],["make","n152","ui.Row",{"owner":"n43","at":111,"cells":["112","TUR","Turku Depot","Depot","10","6"],"colours":[null,null,null,null,null,null]}],["make","n153","ui.Row",{"owner":"n43","at":112,"cells":["113","POR","Porto Museum","Museum","86","6"],"colours":[null,null,[123,219,37,255],null,null,null]}],["make","n154","ui.Row",{"owner":"n43","at":113,"cells":["114","COR","Cork Market","Market","28","6"],"colours":[null,null,[155,62,79,255],null,null,null]}],["make","n155","ui.Row",{"owner":"n43","at":114,"cells":["115","GRA","Graz Harbour","Harbour","92","6"],"colours":[null,null,null,null,null,null]}],["make","n156","ui.Row",{"owner":"n43","at":115,"cells":["116","BER","Bergen Airport","Airport","83","6"],"colours":[null,null,[187,73,129,255],null,true,null]}],["make","n157","ui.Row",{"owner":"n43","at":116,"cells":["117","MAL","Malmo Station","Station","18","6"],"colours":[null,null,[239,112,48,255],null,null,null]}],["make","n158","ui.Row",{"owner":"n43","at":117,"cells":["118","RIG","Riga Depot","Depot","51","6"],"colours":[null,null,null,null,null,null]}],["make","n159","ui.Row",{"owner":"n43","at":118,"cells":["119","SPL","Split Museum","Museum","63","6"],"colours":[null,null,[83,114,82,255],null,null,null]}],["make","n160","ui.Row",{"owner":"n43","at":119,"cells":["120","GHE","Ghent Market","Market","91","6"],"colours":[null,null,[220,206,173,255],null,null,null]}],["make","n161","ui.Row",{"owner":"n43","at":120,"cells":["121","OSL","Oslo Harbour","Harbour","54","7"],"colours":[null,null,null,null,true,null]}],["make","n162","ui.Row",{"owner":"n43","at":121,"cells":["122","LIM","Lima Airport","Airport","26","7"],"colours":[null,null,[182,163,47,255],null,null,null]}],["make","n163","ui.Row",{"owner":"n43","at":122,"cells":["123","QUI","Quito Station","Station","93","7"],"colours":[null,null,[187,9,173,255],null,null,null]}],["make","n164","ui.Row",{"owner":"n43","at":123,"cells":["124","PER","Perth Depot","Depot","71","7"],"colours":[null,null,null,null,null,null]}],["make","n165","ui.Row",{"owner":"n43","at":124,"cells":["125","ACC","Accra Museum","Museum","59","7"],"colours":[null,null,[225,9,196,255],null,null,null]}],["make","n166","ui.Row",{"owner":"n43","at":125,"cells":["126","HAN","Hanoi Market","Market","43","7"],"colours":[null,null,[151,32,57,255],null,true,null]}],["make","n167","ui.Row",{"owner":"n43","at":126,"cells":["127","TUR","Turku Harbour","Harbour","30","7"],"colours":[null,null,null,null,null,null]}],["make","n168","ui.Row",{"owner":"n43","at":127,"cells":["128","POR","Porto Airport","Airport","14","7"],"colours":[null,null,[43,135,139,255],null,null,null]}],["make","n169","ui.Row",{"owner":"n43","at":128,"cells":["129","COR","Cork Station","Station","6","7"],"colours":[null,null,[92,138,66,255],null,null,null]}],["make","n170","ui.Row",{"owner":"n43","at":129,"cells":["130","GRA","Graz Depot","Depot","55","7"],"colours":[null,null,null,null,null,null]}],["make","n171","ui.Row",{"owner":"n43","at":130,"cells":["131","BER","Bergen Museum","Museum","87","7"],"colours":[null,null,[132,207,76,255],null,true,null]}],["make","n172","ui.Row",{"owner":"n43","at":131,"cells":["132","MAL","Malmo Market","Market","69","7"],"colours":[null,null,[253,167,45,255],null,null,null]}],["make","n173","ui.Row",{"owner":"n43","at":132,"cells":["133","RIG","Riga Harbour","Harbour","36","7"],"colours":[null,null,null,null,null,null]}],["make","n174","ui.Row",{"owner":"n43","at":133,"cells":["134","SPL","Split Airport","Airport","8","7"],"colours":[null,null,[93,217,37,255],null,null,null]}],["make","n175","ui.Row",{"owner":"n43","at":134,"cells":["135","GHE","Ghent Station","Station","35","7"],"colours":[null,null,[8,45,133,255],null,null,null]}],["make","n176","ui.Row",{"owner":"n43","at":135,"cells":["136","OSL","Oslo Depot","Depot","11","7"],"colours":[null,null,null,null,true,null]}],["make","n177","ui.Row",{"owner":"n43","at":136,"cells":["137","LIM","Lima Museum","Museum","78","7"],"colours":[null,null,[113,34,135,255],null,null,null]}],["make","n178","ui.Row",{"owner":"n43","at":137,"cells":["138","QUI","Quito Market","Market","16","7"],"colours":[null,null,[232,5,173,255],null,null,null]}],["make","n179","ui.Row",{"owner":"n43","at":138,"cells":["139","PER","Perth Harbour","Harbour","71","7"],"colours":[null,null,null,null,null,null]}],["make","n180","ui.Row",{"owner":"n43","at":139,"cells":["140","ACC","Accra Airport","Airport","54","7"],"colours":[null,null,[137,66,22,255],null,null,null]}],["make","n181","ui.Row",{"owner":"n43","at":140,"cells":["141","HAN","Hanoi Station","Station","68","8"],"colours":[null,null,[122,56,82,255],null,true,null]}],["make","n182","ui.Row",{"owner":"n43","at":141,"cells":["142","TUR","Turku Depot","Depot","34","8"],"colours":[null,null,null,null,null,null]}],["make","n183","ui.Row",{"owner":"n43","at":142,"cells":["143","POR","Porto Museum","Museum","7","8"],"colours":[null,null,[92,103,159,255],null,null,null]}],["update","n43",{"count":143,"height":26,"sorted":true,"columns":[[0,0,60,2,0,2,56],[1,60,60,62,0,62,56]]}],["watch","n43",{"Select":true}],["make","n200","ui.Label",{"owner":"n41","flags":["WRAP"],"box":[12,690,1000,18],"order":-1,"font":[["Sans","Serif"],11,false,false],"label":"Keys: [CTRL+F] find, [CTRL+S] sort"}],["update","n1",{"focused":"n43"}],["invoke","ui.History","push",{"entries":[["places","Places"]]}],["update","n2",{"busy":false,"empty":null}]]}]==]

local function verify(result)
  if not result:is_object() then return false end
  if not result:get('head'):is_object() then return false end
  local operations = result:get('operations')
  return operations:is_array() and operations:size() == 156
end

for _ = 1, ITERATIONS do
  if not verify(Parser.new(DOCUMENT):parse()) then
    error('json: wrong result')
  end
end
print('json ok')
